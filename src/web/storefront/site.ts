// The storefront as a site of the page helper: the shopper's request (cookie session, public reads), CSRF keying,
// the chrome around every page and its error pages.
import type { Request, Response } from "express";
import type { ToolError } from "../../core/errors.ts";
import type { WebDeps } from "../deps.ts";
import type { Caller } from "../../tools/context.ts";
import { sessionCaller } from "../../http/auth.ts";
import type { ObjectSchema, ToolDefinition } from "../../tools/tool.ts";
import type { z } from "zod";
import type { Assets } from "../assets.ts";
import { failureView } from "../components.ts";
import { Csrf } from "../csrf.ts";
import { formParser, WebRequest, type Outcome, type Site, type View } from "../page.ts";
import { Refreshing } from "../refreshed-value.ts";
import { raw, type Html } from "../html.ts";
import { loadChrome, storefrontDocument, type Chrome } from "./storefront-chrome.ts";
import { PageCache, slotMarker, type ShopperSlot } from "./page-cache.ts";

/**
 * The reader of public storefront content. A shopper session's scopes (catalog:read, cart:write, customer:read) do
 * not include pages:read or settings:read, yet published pages, services and the shop's name and contact details
 * are public. Rather than widen every session, the pages read public content as this system caller: read-only
 * scopes, never used for a write or for anything of a shopper (cart, orders, account run as the shopper's own
 * session, so the tools' ownership checks apply); the views show only published pages and services.
 */
export const PUBLIC_READER: Caller = {
  kind: "system",
  actor: "system:storefront-web",
  scopes: new Set(["catalog:read", "pages:read", "settings:read"]),
};

export const CSRF_PURPOSE = "storefront";

export class StorefrontRequest extends WebRequest {
  private startedSession: string | undefined;
  /** The session id the cookie proves, once checked (null: no valid cookie); the check is an HMAC. */
  private cookieSession: string | null | undefined;
  /** The cart's item count when this request loaded the cart (shown in the header badge without a script). */
  cartCount: number | undefined;
  /** Set while the page cache renders this request's page: per-shopper markup is left as slots it fills per request. */
  templating = false;
  /** Set once the page asked for the shopper's caller (their cart, orders, account): such a page is never cached. */
  personal = false;

  readonly site: StorefrontSite;

  constructor(deps: WebDeps, req: Request, res: Response, site: StorefrontSite) {
    super(deps, req, res, "web", (request) => deps.auth.caller(request));
    this.site = site;
  }

  /** Reads public content as PUBLIC_READER (no session lookup, so browsing pages need no database read for the caller). */
  read<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>> {
    return this.callAs(PUBLIC_READER, tool, input);
  }

  /** The shopper's caller (the cookie session's row is read); marks the page as personal. */
  override caller(): Promise<Caller> {
    this.personal = true;
    return super.caller();
  }

  /** The session id proven by the cookie (or started in this request); no database read. */
  sessionId(): string | undefined {
    this.cookieSession ??= this.deps.sessions.idOf(this.req) ?? null;
    return this.startedSession ?? this.cookieSession ?? undefined;
  }

  /**
   * Starts the shop_session (row and cookie) when the request has no validly signed cookie. A valid signature is
   * trusted without a database read; a session whose row is gone is replaced by `shopper()` at the next form post.
   */
  async startSession(): Promise<void> {
    if (!this.sessionId()) await this.newSession();
  }

  /** The shopper's session caller for cart and account actions, starting a session when there is none (or it is gone). */
  async shopper(): Promise<Caller> {
    const caller = await this.caller();
    if (caller.session) return caller;
    return this.newSession();
  }

  private async newSession(): Promise<Caller> {
    const { session } = await this.deps.sessions.ensure(this.req, this.res);
    this.startedSession = session.id;
    const caller = sessionCaller(session, this.req.ip ?? "unknown");
    this.useCaller(caller);
    return caller;
  }

  /** The hidden CSRF input for a form of this page. */
  csrfField(): Html {
    return this.templating ? raw(slotMarker("csrf")) : this.shopperMarkup("csrf");
  }

  /** ` data-session` on the cart badge when the request has a session (its script then fetches the count). */
  sessionAttribute(): Html {
    return this.templating ? raw(slotMarker("session")) : this.shopperMarkup("session");
  }

  /** The markup of a per-shopper slot for this request (the page cache fills cached pages with it). */
  shopperMarkup(slot: ShopperSlot): Html {
    if (slot === "csrf") return this.site.csrf.field(this.sessionId() ?? "", CSRF_PURPOSE);
    return raw(this.sessionId() ? " data-session" : "");
  }

  /** Shop name, navigation and footer data (shared by all requests, at most CHROME_TTL_MS old). */
  chrome(): Promise<Chrome> {
    return this.site.chrome.get(() => loadChrome(this));
  }
}

/**
 * How old the chrome (shop name, shipping and contact details, categories and info pages in the navigation) may be:
 * it is read by every page, so it is kept in memory; a change in the admin shows on every page within this time.
 */
const CHROME_TTL_MS = 2_000;

export class StorefrontSite implements Site<StorefrontRequest> {
  readonly name = CSRF_PURPOSE;
  readonly csrf: Csrf;
  readonly forms = formParser({ bytes: "32kb", fields: 200 });
  readonly chrome: Refreshing<Chrome>;
  /** Rendered catalogue pages (home, product, category, search). */
  readonly pages: PageCache<StorefrontRequest>;

  readonly deps: WebDeps;
  readonly assets: Assets;

  constructor(deps: WebDeps, assets: Assets) {
    this.deps = deps;
    this.assets = assets;
    this.csrf = new Csrf(deps.secret);
    this.chrome = new Refreshing(CHROME_TTL_MS, (error) => deps.log.warn("storefront chrome refresh failed", { error: String(error) }));
    this.pages = new PageCache<StorefrontRequest>(deps.catalog);
  }

  context(req: Request, res: Response): StorefrontRequest {
    return new StorefrontRequest(this.deps, req, res, this);
  }

  sessionKey(web: StorefrontRequest): string | undefined {
    return web.sessionId();
  }

  render(web: StorefrontRequest, view: View): Promise<Html> {
    return storefrontDocument(web, view);
  }

  failure(web: StorefrontRequest, error: ToolError): Outcome {
    return failureView(error, web.requestId);
  }
}
