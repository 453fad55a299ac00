// Staff sign-in: throttle, check the credentials, open a session; every failure says the same thing.
import type { Db } from "../../core/db.ts";
import type { StaffSession } from "../../generated/prisma/client.ts";
import { RateLimited, ToolError } from "../../core/errors.ts";
import { openSession } from "./sessions.ts";
import { countAttempt, forgiveAttempt, type ThrottlePolicy } from "./throttle.ts";
import { checkCredentials, type StaffUser } from "./staff-users.ts";

/** The one answer to a wrong e-mail, a wrong password or both: it must not tell which. */
export class WrongCredentials extends ToolError {
  constructor() {
    super(401, "invalid_credentials", "Sign-in failed", "The e-mail or the password is wrong.");
  }
}

export interface SignInAttempt {
  email: string;
  password: string;
  address: string;
  userAgent?: string | undefined;
}

/** A new session for the staff user, or WrongCredentials (401) / RateLimited (429). */
export async function signIn(db: Db, policy: ThrottlePolicy, attempt: SignInAttempt, now: Date): Promise<{ token: string; session: StaffSession; staff: StaffUser }> {
  const verdict = await countAttempt(db, policy, attempt.address, attempt.email, now);
  if (!verdict.allowed) throw new RateLimited(verdict.retryAfterSeconds);
  const staff = await checkCredentials(db, attempt.email, attempt.password);
  if (!staff) throw new WrongCredentials();
  await forgiveAttempt(db, attempt.address, attempt.email);
  const { token, session } = await openSession(db, staff.id, now, { address: attempt.address, userAgent: attempt.userAgent });
  return { token, session, staff };
}
