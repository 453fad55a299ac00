// Staff identity over HTTP: the `shop_admin` session cookie and the StaffResolver that the Authenticator, the admin
// web and the admin assistant share, the first-run setup link, and staff e-mails for the pages (which never hold Prisma).
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import redeemSetup from "../tools/staff/redeem_setup.ts";
import type { StaffUser } from "../tools/staff/staff-users.ts";
import { ABSOLUTE_MS } from "../tools/staff/sessions.ts";
import type { SignInAttempt } from "../tools/staff/sign-in.ts";
import signInTool from "../tools/staff/sign_in.ts";
import signOutTool from "../tools/staff/sign_out.ts";
import type { StaffStore } from "../tools/staff/store.ts";
import type { StaffResolver } from "./auth.ts";
import { readCookie } from "./cookies.ts";

export const STAFF_COOKIE = "shop_admin";

export interface SignedInStaff {
  sessionId: string;
  staff: StaffUser;
  /** The identity every admin page and the admin assistant act with: door "admin", actor staff:<id>. */
  caller: Caller;
}

/** Who signs in or spends the setup link: nobody known yet, at this address (the audit entry's actor is "anonymous"). */
function visitor(address: string): Caller {
  return { kind: "anonymous", actor: "anonymous", scopes: new Set(), address };
}

/** Who ends a session when no staff caller is given (a session ended on the server's own account). */
const SIGN_OUT: Caller = { kind: "system", actor: "system:admin-sign-out", scopes: new Set() };

function staffCaller(staff: StaffUser): Caller {
  return { kind: "staff", actor: `staff:${staff.id}`, scopes: new Set(staff.scopes), staffId: staff.id };
}

export class StaffAuth {
  private readonly store: StaffStore;
  private readonly executor: Executor;
  private readonly secure: boolean;
  readonly now: () => Date;

  constructor(store: StaffStore, executor: Executor, secure: boolean, now: () => Date) {
    this.store = store;
    this.executor = executor;
    this.secure = secure;
    this.now = now;
  }

  /** The signed-in staff user of a Cookie header, or undefined (no cookie, unknown, revoked, idle or expired). */
  async signedIn(cookieHeader: string | undefined): Promise<SignedInStaff | undefined> {
    const token = readCookie(cookieHeader, STAFF_COOKIE);
    if (!token) return undefined;
    const session = await this.store.session(token, this.now());
    if (!session) return undefined;
    return { sessionId: session.id, staff: session.staff, caller: staffCaller(session.staff) };
  }

  /** Cookie header → staff Caller: the hook installed as `runtime.auth.staff`. */
  readonly resolver: StaffResolver = async (cookieHeader) => (await this.signedIn(cookieHeader))?.caller;

  /** Signs in through staff.sign_in (throttled, generic failure, audited) and returns the Set-Cookie value of the new session. */
  async signIn(attempt: SignInAttempt): Promise<{ staff: StaffUser; setCookie: string }> {
    const { email, password, address, userAgent } = attempt;
    const input = { email, password, address, ...(userAgent !== undefined ? { userAgent } : {}) };
    const { token, staff } = await this.executor.call(signInTool, input, { caller: visitor(address), door: "admin" });
    return { staff, setCookie: this.sessionCookie(token) };
  }

  /**
   * Spends the first-run setup link through staff.redeem_setup (audited): the first staff user and a session for them,
   * whose Set-Cookie value is returned; SetupLinkInvalid when the link cannot be used.
   */
  async setUp(token: string, input: { email: string; password: string }, client: { address?: string | undefined; userAgent?: string | undefined }): Promise<{ staff: StaffUser; setCookie: string }> {
    const known = { ...(client.address !== undefined ? { address: client.address } : {}), ...(client.userAgent !== undefined ? { userAgent: client.userAgent } : {}) };
    const redeemed = await this.executor.call(redeemSetup, { token, ...input, ...known }, { caller: visitor(client.address ?? "unknown"), door: "admin" });
    return { staff: redeemed.staff, setCookie: this.sessionCookie(redeemed.token) };
  }

  /** Ends a session through staff.sign_out (audited), as the staff user signing out (the system when not given). */
  async signOut(sessionId: string, caller: Caller = SIGN_OUT): Promise<void> {
    await this.executor.call(signOutTool, { sessionId }, { caller, door: "admin" });
  }

  /** A fresh first-run setup token while the shop has no staff user, else null. */
  issueSetupToken(): Promise<string | null> {
    return this.store.issueSetupToken(this.now());
  }

  /** Whether a setup token may still create the first staff user. */
  setupTokenUsable(token: string): Promise<boolean> {
    return this.store.setupTokenUsable(token, this.now());
  }

  /** E-mail addresses of staff users by id, for showing "staff:<id>" actors as people. */
  emails(ids: readonly string[]): Promise<Map<string, string>> {
    return this.store.emails(ids);
  }

  /** For a new session: HttpOnly, SameSite=Lax, Secure behind https; the browser drops it at the absolute expiry. */
  private sessionCookie(token: string): string {
    return `${STAFF_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_MS / 1000}${this.secure ? "; Secure" : ""}`;
  }

  clearedSessionCookie(): string {
    return `${STAFF_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${this.secure ? "; Secure" : ""}`;
  }
}
