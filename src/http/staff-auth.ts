// Staff identity over HTTP: the `shop_admin` session cookie and the StaffResolver that the Authenticator, the admin
// web and the admin assistant share, the first-run setup link, and staff e-mails for the pages (which never hold Prisma).
import type { Prisma } from "../core/db.ts";
import type { Caller } from "../tools/context.ts";
import { staffEmails, type StaffUser } from "../tools/staff/staff-users.ts";
import { ABSOLUTE_MS, closeSession, findSession, openSession } from "../tools/staff/sessions.ts";
import { issueSetupToken, redeemSetupToken, setupTokenUsable } from "../tools/staff/setup.ts";
import { signIn, type SignInAttempt } from "../tools/staff/sign-in.ts";
import { DEFAULT_THROTTLE, type ThrottlePolicy } from "../tools/staff/throttle.ts";
import type { StaffResolver } from "./auth.ts";
import { readCookie } from "./cookies.ts";

export const STAFF_COOKIE = "shop_admin";

export interface SignedInStaff {
  sessionId: string;
  staff: StaffUser;
  /** The identity every admin page and the admin assistant act with: door "admin", actor staff:<id>. */
  caller: Caller;
}

function staffCaller(staff: StaffUser): Caller {
  return { kind: "staff", actor: `staff:${staff.id}`, scopes: new Set(staff.scopes), staffId: staff.id };
}

export class StaffAuth {
  private readonly prisma: Prisma;
  private readonly secure: boolean;
  readonly now: () => Date;
  readonly throttle: ThrottlePolicy;

  constructor(prisma: Prisma, secure: boolean, now: () => Date, throttle: ThrottlePolicy = DEFAULT_THROTTLE) {
    this.prisma = prisma;
    this.secure = secure;
    this.now = now;
    this.throttle = throttle;
  }

  /** The signed-in staff user of a Cookie header, or undefined (no cookie, unknown, revoked, idle or expired). */
  async signedIn(cookieHeader: string | undefined): Promise<SignedInStaff | undefined> {
    const token = readCookie(cookieHeader, STAFF_COOKIE);
    if (!token) return undefined;
    const session = await findSession(this.prisma, token, this.now());
    if (!session) return undefined;
    return { sessionId: session.id, staff: session.staff, caller: staffCaller(session.staff) };
  }

  /** Cookie header → staff Caller: the hook installed as `runtime.auth.staff`. */
  readonly resolver: StaffResolver = async (cookieHeader) => (await this.signedIn(cookieHeader))?.caller;

  /** Signs in (throttled, generic failure) and returns the Set-Cookie value of the new session. */
  async signIn(attempt: SignInAttempt): Promise<{ staff: StaffUser; setCookie: string }> {
    const session = await signIn(this.prisma, this.throttle, attempt, this.now());
    return { staff: session.staff, setCookie: this.sessionCookie(session.token) };
  }

  /** A session for a staff user who has just proved who they are another way (the first-run setup link). */
  async openFor(staff: StaffUser, client: { address?: string | undefined; userAgent?: string | undefined }): Promise<string> {
    const session = await openSession(this.prisma, staff.id, this.now(), client);
    return this.sessionCookie(session.token);
  }

  async signOut(sessionId: string): Promise<void> {
    await closeSession(this.prisma, sessionId, this.now());
  }

  /** A fresh first-run setup token while the shop has no staff user, else null. */
  issueSetupToken(): Promise<string | null> {
    return issueSetupToken(this.prisma, this.now());
  }

  /** Whether a setup token may still create the first staff user. */
  setupTokenUsable(token: string): Promise<boolean> {
    return setupTokenUsable(this.prisma, token, this.now());
  }

  /** Spends a setup token on the first staff user (every scope); SetupLinkInvalid when it cannot. */
  redeemSetupToken(token: string, input: { email: string; password: string }): Promise<StaffUser> {
    return redeemSetupToken(this.prisma, token, input, this.now());
  }

  /** E-mail addresses of staff users by id, for showing "staff:<id>" actors as people. */
  emails(ids: readonly string[]): Promise<Map<string, string>> {
    return staffEmails(this.prisma, ids);
  }

  /** For a new session: HttpOnly, SameSite=Lax, Secure behind https; the browser drops it at the absolute expiry. */
  private sessionCookie(token: string): string {
    return `${STAFF_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_MS / 1000}${this.secure ? "; Secure" : ""}`;
  }

  clearedSessionCookie(): string {
    return `${STAFF_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${this.secure ? "; Secure" : ""}`;
  }
}
