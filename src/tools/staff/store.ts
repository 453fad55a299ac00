// The staff session and setup-token rows the admin door's plumbing reads (src/http/staff-auth.ts): who a `shop_admin`
// cookie belongs to, the first-run setup token, staff e-mails for pages. The writes that matter (sign-in, sign-out,
// spending the setup link) are tools, audited: staff.sign_in, staff.sign_out, staff.redeem_setup.
import type { Prisma } from "../../core/db.ts";
import { staffEmails } from "./staff-users.ts";
import { findSession, type StaffSessionRef } from "./sessions.ts";
import { issueSetupToken, setupTokenUsable } from "./setup.ts";

export class StaffStore {
  private readonly prisma: Prisma;

  constructor(prisma: Prisma) {
    this.prisma = prisma;
  }

  /** The live session of a cookie token, with its staff user (its last-seen time touched now and then). */
  session(token: string, now: Date): Promise<StaffSessionRef | null> {
    return findSession(this.prisma, token, now);
  }

  /** A fresh first-run setup token while no staff user can sign in, else null (printed at start, not audited). */
  issueSetupToken(now: Date): Promise<string | null> {
    return issueSetupToken(this.prisma, now);
  }

  setupTokenUsable(token: string, now: Date): Promise<boolean> {
    return setupTokenUsable(this.prisma, token, now);
  }

  emails(ids: readonly string[]): Promise<Map<string, string>> {
    return staffEmails(this.prisma, ids);
  }
}
