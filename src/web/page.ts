// The page helper of every web route (storefront and admin): route → executor calls (door "web"/"admin") → view →
// escaped HTML in the site's chrome, with CSRF and rate limits on form posts and error pages instead of stack traces.
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import { RateLimited, toToolError, ToolError } from "../core/errors.ts";
import type { WebDeps } from "./deps.ts";
import type { Caller, Door } from "../tools/context.ts";
import type { ObjectSchema, ToolDefinition } from "../tools/tool.ts";
import { rateLimitHeaders } from "../http/rate-limit.ts";
import { Csrf } from "./csrf.ts";
import { sendHtml } from "./headers.ts";
import { escapeHtml, html, raw, type Html } from "./html.ts";
import { requestAddress } from "../http/address.ts";
import { noteCaller, noteRateLimited } from "../http/request-facts.ts";
import { requestId } from "../http/requests.ts";

/** What a page handler returns to be shown. */
export interface View {
  /** HTTP status, 200 unless said. */
  status?: number;
  /** The page's own title; the site adds its name. */
  title: string;
  main: Html;
  description?: string;
  /** Path of the canonical address ("/products/x"); the site makes it absolute with PUBLIC_BASE_URL. */
  canonical?: string;
  /** Keep the page out of search engines. */
  noindex?: boolean;
  /** Extra head markup (Open Graph, JSON-LD). */
  head?: Html;
  /** Extra client scripts (asset names) for this page, after the site's own. */
  scripts?: string[];
  /** Response headers beyond (or tightening) the security headers, e.g. a stricter Referrer-Policy. */
  headers?: Record<string, string>;
}

/** A POST handled: go here next (303 See Other by default, so a reload does not post again). */
export interface Redirect {
  redirect: string;
  status?: 301 | 302 | 303;
  /** Allow an absolute http(s) address (a payment provider); otherwise only same-site paths are followed. */
  external?: boolean;
}

export type Outcome = View | Redirect;

/** One web request: its caller (resolved on first use) and typed tool calls through the one executor. */
export class WebRequest {
  readonly requestId: string;
  private resolved: Promise<Caller> | undefined;

  readonly deps: WebDeps;
  readonly req: Request;
  readonly res: Response;
  readonly door: Door;
  private readonly identify: (req: Request) => Promise<Caller>;

  constructor(deps: WebDeps, req: Request, res: Response, door: Door, identify: (req: Request) => Promise<Caller>) {
    this.deps = deps;
    this.req = req;
    this.res = res;
    this.door = door;
    this.identify = identify;
    this.requestId = requestId(req);
  }

  /** The caller of this request (memoised; a cookie session costs one database read, so only pages that need it ask). */
  caller(): Promise<Caller> {
    this.resolved ??= this.identify(this.req).then((caller) => {
      noteCaller(this.res, caller);
      return caller;
    });
    return this.resolved;
  }

  /** Replaces the caller for the rest of this request (a route that just started a session acts as it). */
  protected useCaller(caller: Caller): void {
    noteCaller(this.res, caller);
    this.resolved = Promise.resolve(caller);
  }

  /** Calls a tool as this request's caller: the executor checks scope, validates, runs and audits as for REST. */
  async call<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>> {
    return this.callAs(await this.caller(), tool, input);
  }

  /** Calls a tool as the given caller (a site's narrow system reader for public content). */
  async callAs<I extends ObjectSchema, O extends z.ZodType>(caller: Caller, tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>> {
    return this.deps.executor.call(tool, input, {
      caller,
      door: this.door,
      requestId: this.requestId,
      onSessionReplaced: (sessionId) => this.res.append("Set-Cookie", this.deps.sessions.cookie(sessionId)),
    });
  }

  /** One query-string parameter as a trimmed string ("" when absent; the first when repeated). */
  query(name: string): string {
    const value = this.req.query[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === "string" ? first.trim() : "";
  }

  /** One field of a posted form as a string ("" when absent). */
  field(name: string): string {
    const value = (this.req.body as Record<string, unknown> | undefined)?.[name];
    return typeof value === "string" ? value : "";
  }
}

/** What a site (storefront, admin) plugs into the page helper. */
export interface Site<W extends WebRequest> {
  /** The CSRF purpose of this site's forms ("storefront", "admin"): a token of one site is refused by the other. */
  readonly name: string;
  readonly csrf: Csrf;
  /** Parses the site's form posts (formParser with the site's limits). */
  readonly forms: RequestHandler;
  context(req: Request, res: Response): W;
  /**
   * The key CSRF tokens of this request are bound to: the session id the cookie proves (no database read), or
   * undefined when the request has no session yet (then only the same-origin check guards a post).
   */
  sessionKey(web: W): string | undefined;
  /** The whole document: the view inside the site's header, navigation and footer. */
  render(web: W, view: View): Promise<Html>;
  /** A failure as a page (404, 400, 403, 422, 429, 500, 503); may redirect instead (401 → login). */
  failure(web: W, error: ToolError): Outcome;
}

/** The urlencoded form parser of a site, with its limits: a larger form is refused with 413 before the CSRF check. */
export function formParser(limits: { bytes: string; fields: number }): RequestHandler {
  return express.urlencoded({ extended: false, limit: limits.bytes, parameterLimit: limits.fields });
}

function parseForm(parser: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void parser(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
}

function isRedirect(outcome: Outcome): outcome is Redirect {
  return "redirect" in outcome;
}

/** Only same-site paths: a redirect target taken from a form can never send the shopper elsewhere. */
export function localPath(target: string, fallback = "/"): string {
  return /^\/(?![/\\])/.test(target) ? target : fallback;
}

/**
 * Turns a page handler into an express handler. GET/HEAD render; any other method first parses the form
 * (urlencoded), counts against the client address's rate limit and passes the site's CSRF check. Thrown tool
 * errors become the site's error pages; anything unexpected is logged and answers a 500 page with the request id.
 */
export function webRoute<W extends WebRequest>(site: Site<W>, handler: (web: W) => Promise<Outcome>, cache?: PageCaching<W>): RequestHandler {
  return async (req, res) => {
    const web = site.context(req, res);
    let outcome: Outcome;
    try {
      if (req.method !== "GET" && req.method !== "HEAD") {
        await admitForm(web);
        await parseForm(site.forms, req, res).catch((error: unknown) => {
          throw formError(error);
        });
        site.csrf.check(req, site.sessionKey(web), site.name, web.deps.config.publicBaseUrl);
      } else if (cache) {
        const unanswered = await cache.serve(web, handler);
        if (!unanswered) return;
        outcome = unanswered;
      }
      outcome ??= await handler(web);
    } catch (error) {
      outcome = failureOutcome(site, web, error);
    }
    await respond(site, web, outcome);
  };
}

/** A cache of a site's rendered pages: answers a GET itself, or returns the outcome it leaves to the page helper. */
export interface PageCaching<W extends WebRequest> {
  serve(web: W, handler: (web: W) => Promise<Outcome>): Promise<Outcome | undefined>;
}

/** Form posts share the client address's budget with anonymous API calls (RATE_LIMIT_ANON_PER_MIN). */
async function admitForm(web: WebRequest): Promise<void> {
  const address = requestAddress(web.req);
  const state = await web.deps.limiter.check(`addr:${address}`, false);
  web.res.set(rateLimitHeaders(state));
  if (!state.allowed) {
    noteRateLimited(web.res, state.policy);
    throw new RateLimited(state.resetSeconds);
  }
}

/**
 * Express error middleware for a site's router: what express itself refuses before a page handler runs (an
 * undecodable %-escape in the path is a 400) answers the site's error page instead of a JSON problem.
 */
export function webErrors<W extends WebRequest>(site: Site<W>): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const { status } = error as { status?: unknown };
    const mapped = typeof status === "number" && status >= 400 && status < 500 ? new ToolError(status, "bad_request", "Bad request", "The address could not be read.") : error;
    const web = site.context(req, res);
    void respond(site, web, failureOutcome(site, web, mapped));
  };
}

function formError(error: unknown): ToolError {
  const type = (error as { type?: unknown }).type;
  if (type === "entity.too.large" || type === "parameters.too.many") return new ToolError(413, "payload_too_large", "Payload too large", "The form is too large.");
  return new ToolError(400, "invalid_form", "Invalid form", "The form could not be read.");
}

function failureOutcome<W extends WebRequest>(site: Site<W>, web: W, error: unknown): Outcome {
  const mapped = toToolError(error);
  if (mapped.status >= 500) web.deps.log.error("web page failed", { path: web.req.path, requestId: web.requestId, error: String(error) });
  if (mapped instanceof RateLimited) web.res.set("Retry-After", String(mapped.retryAfterSeconds));
  try {
    return site.failure(web, mapped);
  } catch (failed) {
    web.deps.log.error("error page failed", { requestId: web.requestId, error: String(failed) });
    return { status: 500, title: "Der opstod en fejl", main: html`<h1>Der opstod en fejl</h1>` };
  }
}

async function respond<W extends WebRequest>(site: Site<W>, web: W, outcome: Outcome): Promise<void> {
  if (isRedirect(outcome)) {
    const target = outcome.external && /^https?:\/\//.test(outcome.redirect) ? outcome.redirect : localPath(outcome.redirect);
    web.res.set("Cache-Control", "no-store").redirect(outcome.status ?? 303, target);
    return;
  }
  let document: Html;
  try {
    document = await site.render(web, outcome);
  } catch (error) {
    // The chrome itself failed (e.g. the database is down while reading settings): a bare page, never a stack trace.
    web.deps.log.error("page chrome failed", { path: web.req.path, requestId: web.requestId, error: String(error) });
    sendHtml(web.res, 500, bareDocument(web.requestId));
    return;
  }
  if (outcome.headers) web.res.set(outcome.headers);
  sendHtml(web.res, outcome.status ?? 200, document);
}

function bareDocument(requestId: string): Html {
  return raw(`<!doctype html>
<html lang="da"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Der opstod en fejl</title></head>
<body><main><h1>Der opstod en fejl</h1><p>Prøv igen om lidt. Fejl-id: ${escapeHtml(requestId)}</p></main></body></html>
`);
}
