// The admin as a site of the page helper: the staff user's request (door "admin", the staff caller), CSRF keyed on
// the staff session, the chrome around every admin page, error pages, and the POST + redirect + flash pattern.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import type { z } from "zod";
import { requestAddress } from "../../http/address.ts";
import { anonymousCaller } from "../../http/auth.ts";
import { readCookie } from "../../http/cookies.ts";
import { STAFF_COOKIE, type SignedInStaff } from "../../http/staff-auth.ts";
import { toToolError, ToolError, Unauthorized } from "../../core/errors.ts";
import type { WebDeps } from "../deps.ts";
import type { Caller } from "../../tools/context.ts";
import settingsGetCommerce from "../../tools/settings/get_commerce.ts";
import type { ObjectSchema, ToolDefinition } from "../../tools/tool.ts";
import type { Assets } from "../assets.ts";
import { Csrf } from "../csrf.ts";
import type { Html } from "../html.ts";
import { formParser, WebRequest, type Outcome, type Redirect, type Site, type View } from "../page.ts";
import { setFlash, takeFlash, type Flash } from "./flash.ts";
import { adminDocument, adminFailure } from "./admin-chrome.ts";
import { problemText } from "./problems.ts";

const CSRF_PURPOSE = "admin";
/** Before sign-in there is no staff session to bind a form to: the sign-in and setup pages set this nonce cookie. */
const PRE_COOKIE = "shop_admin_pre";
const PRE_MAX_AGE_S = 2 * 60 * 60;

/**
 * Reads the shop currency for every staff user, whatever their scopes: the currency is public (the storefront shows it)
 * and every amount on an admin page is in it.
 */
const CURRENCY_READER: Caller = { kind: "system", actor: "system:admin-web", scopes: new Set(["settings:read"]) };

export class AdminRequest extends WebRequest {
  private flashed: Flash | undefined | null = null;
  private shopCommerce: Promise<{ currency: string; pricesIncludeVat: boolean }> | undefined;
  /** A nonce cookie set by this very response (not yet in the request's Cookie header). */
  preNonce: string | undefined;

  readonly site: AdminSite;

  constructor(deps: WebDeps, req: Request, res: Response, site: AdminSite) {
    super(deps, req, res, "admin", async () => {
      const staff = this.signedIn;
      if (!staff) throw new Unauthorized("Sign in at /admin/login first.");
      return staff.caller;
    });
    this.site = site;
  }

  /** The staff user requireStaff found for this request (undefined on the sign-in and setup pages). */
  get signedIn(): SignedInStaff | undefined {
    return this.res.locals.staff as SignedInStaff | undefined;
  }

  /** The staff user, for pages behind requireStaff. */
  get staff(): SignedInStaff {
    const staff = this.signedIn;
    if (!staff) throw new Unauthorized("Sign in at /admin/login first.");
    return staff;
  }

  /** Whether the staff user's scopes allow a tool: its buttons are shown disabled otherwise. */
  may(tool: ToolDefinition<ObjectSchema, z.ZodType>): boolean {
    const staff = this.signedIn;
    return Boolean(staff) && this.deps.executor.allows(tool, staff!.caller);
  }

  /** Calls an anonymous tool as nobody in particular, from the client's address (the pages before sign-in). */
  callAnonymously<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>> {
    return this.callAs(anonymousCaller(requestAddress(this.req)), tool, input);
  }

  /** Gives a browser without any admin cookie the nonce cookie its sign-in (or setup) form is bound to. */
  bindSignedOutForm(): void {
    if (this.site.cookieKey(this)) return;
    this.preNonce = crypto.randomBytes(16).toString("base64url");
    const secure = this.deps.config.publicBaseUrl.startsWith("https:") ? "; Secure" : "";
    this.res.append("Set-Cookie", `${PRE_COOKIE}=${this.preNonce}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=${PRE_MAX_AGE_S}${secure}`);
  }

  /** The shop currency (ISO 4217) the page's amounts are in and whether prices include VAT, read once per request. */
  commerce(): Promise<{ currency: string; pricesIncludeVat: boolean }> {
    this.shopCommerce ??= this.callAs(CURRENCY_READER, settingsGetCommerce, {});
    return this.shopCommerce;
  }

  async currency(): Promise<string> {
    return (await this.commerce()).currency;
  }

  /** The hidden CSRF input of a form on this page. */
  csrfField(): Html {
    return this.site.csrf.field(this.site.sessionKey(this), CSRF_PURPOSE);
  }

  /** The message the previous POST left (read once per request; the cookie is cleared). */
  flash(): Flash | undefined {
    if (this.flashed === null) this.flashed = takeFlash(this.req, this.res, this.deps.secret);
    return this.flashed;
  }

  /** Redirect after a POST, with a message for the next page. */
  done(redirect: string, text: string, kind: Flash["kind"] = "ok"): Redirect {
    setFlash(this.res, this.deps.secret, { kind, text });
    return { redirect };
  }

  /**
   * Runs one form action and redirects to `back` with its outcome as a flash message; a refusal goes to `failed`
   * (the form again, by default the same page; see `refused`).
   */
  async act(back: string, work: () => Promise<string>, failed = back): Promise<Redirect> {
    try {
      return this.done(back, await work());
    } catch (error) {
      return this.refused(failed, error);
    }
  }

  /**
   * A refusal the staff user can act on (400, 404, 409, 422) goes back as an error message on the page they came
   * from; a missing scope (403) and server failures are rethrown for the error page.
   */
  refused(back: string, error: unknown): Redirect {
    const mapped = toToolError(error);
    if (mapped.status === 401 || mapped.status === 403 || mapped.status >= 500) throw error;
    return this.done(back, problemText(mapped), "error");
  }
}

export class AdminSite implements Site<AdminRequest> {
  readonly name = CSRF_PURPOSE;
  readonly csrf: Csrf;
  /** Admin forms carry long texts (page bodies, policies, layouts as JSON): larger limits than the storefront's. */
  readonly forms = formParser({ bytes: "512kb", fields: 1000 });

  readonly deps: WebDeps;
  readonly assets: Assets;

  constructor(deps: WebDeps, assets: Assets) {
    this.deps = deps;
    this.assets = assets;
    this.csrf = new Csrf(deps.secret);
  }

  context(req: Request, res: Response): AdminRequest {
    return new AdminRequest(this.deps, req, res, this);
  }

  /**
   * Forms are bound to the staff session the cookie names (its token's hash: no database read, and a new sign-in
   * invalidates old forms), or before sign-in to the nonce cookie the sign-in and setup pages set. Without either
   * cookie the key matches no token, so every admin form post needs one (never only the same-origin check).
   */
  sessionKey(web: AdminRequest): string {
    return this.cookieKey(web) ?? "no-admin-cookie";
  }

  cookieKey(web: AdminRequest): string | undefined {
    const token = readCookie(web.req.headers.cookie, STAFF_COOKIE);
    if (token) return `staff:${crypto.createHash("sha256").update(token).digest("base64url")}`;
    const nonce = web.preNonce ?? readCookie(web.req.headers.cookie, PRE_COOKIE);
    return nonce && /^[\w-]{22}$/.test(nonce) ? `pre:${nonce}` : undefined;
  }

  render(web: AdminRequest, view: View): Promise<Html> {
    return Promise.resolve(adminDocument(web, view));
  }

  failure(web: AdminRequest, error: ToolError): Outcome {
    if (error.status === 401) return { redirect: `/admin/login?next=${encodeURIComponent(web.req.method === "GET" ? web.req.originalUrl : "/admin")}` };
    return adminFailure(error, web.requestId);
  }
}
