// Staff identity over HTTP: the `shop_admin` session cookie, the StaffResolver that the Authenticator and the admin
// assistant share, and CSRF tokens bound to the staff session (or, before sign-in, to a nonce cookie).
import crypto from "node:crypto";
import type { Prisma } from "../core/db.ts";
import { ABSOLUTE_MS, closeSession, findSession, openSession } from "../core/staff/sessions.ts";
import { signIn, type SignInAttempt } from "../core/staff/sign-in.ts";
import { DEFAULT_THROTTLE, type ThrottlePolicy } from "../core/staff/throttle.ts";
import type { StaffUser } from "../core/staff/users.ts";
import type { Caller } from "../tools/context.ts";
import type { StaffResolver } from "./auth.ts";
import { readCookie } from "./cookies.ts";

export const STAFF_COOKIE = "shop_admin";
/** Before sign-in there is no session to bind a CSRF token to: this cookie holds a random nonce instead. */
const PRE_COOKIE = "shop_admin_pre";
const PRE_MAX_AGE_S = 2 * 60 * 60;

export interface SignedInStaff {
  sessionId: string;
  staff: StaffUser;
  /** The identity every admin page and the admin assistant act with: door "admin", actor staff:<id>. */
  caller: Caller;
  /** The CSRF token every form of this session carries. */
  csrf: string;
}

export function staffCaller(staff: StaffUser): Caller {
  return { kind: "staff", actor: `staff:${staff.id}`, scopes: new Set(staff.scopes), staffId: staff.id };
}

export class StaffAuth {
  constructor(
    private readonly prisma: Prisma,
    private readonly secret: string,
    private readonly secure: boolean,
    readonly now: () => Date,
    readonly throttle: ThrottlePolicy = DEFAULT_THROTTLE,
  ) {}

  /** The signed-in staff user of a Cookie header, or undefined (no cookie, unknown, revoked, idle or expired). */
  async signedIn(cookieHeader: string | undefined): Promise<SignedInStaff | undefined> {
    const token = readCookie(cookieHeader, STAFF_COOKIE);
    if (!token) return undefined;
    const session = await findSession(this.prisma, token, this.now());
    if (!session) return undefined;
    return { sessionId: session.id, staff: session.staff, caller: staffCaller(session.staff), csrf: this.csrfToken(`session:${session.id}`) };
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

  /** For a new session: HttpOnly, SameSite=Lax, Secure behind https; the browser drops it at the absolute expiry. */
  private sessionCookie(token: string): string {
    return `${STAFF_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_MS / 1000}${this.secure ? "; Secure" : ""}`;
  }

  clearedSessionCookie(): string {
    return `${STAFF_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${this.secure ? "; Secure" : ""}`;
  }

  /** The pre-sign-in nonce of the request, or a new one with the Set-Cookie value that stores it. */
  preSignIn(cookieHeader: string | undefined): { csrf: string; setCookie?: string } {
    const existing = readCookie(cookieHeader, PRE_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return { csrf: this.csrfToken(`pre:${existing}`) };
    const nonce = crypto.randomBytes(16).toString("base64url");
    const setCookie = `${PRE_COOKIE}=${nonce}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=${PRE_MAX_AGE_S}${this.secure ? "; Secure" : ""}`;
    return { csrf: this.csrfToken(`pre:${nonce}`), setCookie };
  }

  /** Whether a form token matches the pre-sign-in nonce cookie. */
  preSignInValid(cookieHeader: string | undefined, token: unknown): boolean {
    const nonce = readCookie(cookieHeader, PRE_COOKIE);
    return Boolean(nonce) && this.csrfValid(`pre:${nonce}`, token);
  }

  /** Whether a form token belongs to this staff session. */
  sessionCsrfValid(signedIn: SignedInStaff, token: unknown): boolean {
    return this.csrfValid(`session:${signedIn.sessionId}`, token);
  }

  private csrfToken(binding: string): string {
    return crypto.createHmac("sha256", this.secret).update(`admin-csrf:${binding}`).digest("base64url");
  }

  private csrfValid(binding: string, token: unknown): boolean {
    if (typeof token !== "string") return false;
    const expected = Buffer.from(this.csrfToken(binding));
    const given = Buffer.from(token);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
}
