// Rendered catalogue pages (home, product, category, search) per (catalogue version, chrome, address): a repeated page
// skips its tool calls, the templates and the UTF-8 encoding. What differs per shopper is filled in per request.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import type { Versioned } from "../../http/result-cache.ts";
import { sendHtml } from "../headers.ts";
import type { Html } from "../html.ts";
import type { Outcome, View } from "../page.ts";
import type { Chrome } from "./storefront-chrome.ts";

/** What the cache needs of a storefront request (a StorefrontRequest of src/web/storefront/site.ts, which serves pages through it). */
export interface CachedRequest<W> {
  readonly req: Request;
  readonly res: Response;
  readonly site: { render(web: W, view: View): Promise<Html> };
  /** Set while the page is rendered for the cache: per-shopper markup is left as slots. */
  templating: boolean;
  /** Whether the page read anything of the shopper (then it is not kept). */
  readonly personal: boolean;
  chrome(): Promise<Chrome>;
  shopperMarkup(slot: ShopperSlot): Html;
}

const MAX_BYTES = 16 * 1024 * 1024;
const MAX_ENTRIES = 2_000;

/** Markup that differs per shopper: the CSRF field of a form and the cart badge's session flag. */
export type ShopperSlot = "csrf" | "session";
const SLOTS: readonly ShopperSlot[] = ["csrf", "session"];

/** Stands in for a slot while a page is rendered for the cache: unguessable, so no content (escaped or not) holds it. */
const MARK = `<!--${crypto.randomUUID()}:`;
export const slotMarker = (slot: ShopperSlot): string => `${MARK}${slot}-->`;
const MARKERS = new RegExp(SLOTS.map((slot) => slotMarker(slot)).join("|"), "g");

/** A page as UTF-8 chunks and the slots between them. */
type Page = ReadonlyArray<Buffer | ShopperSlot>;

/**
 * Only a plain 200 view that read nothing of the shopper (web.personal) is kept: no own headers, no redirect, no error
 * page (those carry request ids or are rare).
 * A cached page is never older than the catalogue it shows: every entry is dropped when the catalogue version or the
 * chrome (shop settings, refreshed every few seconds) changes, and a page rendered while either changed is not kept.
 */
export class PageCache<W extends CachedRequest<W>> {
  private pages = new Map<string, Page>();
  private bytes = 0;
  private version = -1;
  private chrome: Chrome | undefined;

  private readonly catalog: Versioned;

  constructor(catalog: Versioned) {
    this.catalog = catalog;
  }

  /**
   * Answers the request from the cache, or renders it with `handler` (storing it when it may be kept); returns the
   * outcome it did not answer (a redirect), or undefined once the page is sent. The handler's errors are thrown.
   */
  async serve(web: W, handler: (web: W) => Promise<Outcome>): Promise<Outcome | undefined> {
    const version = this.catalog.version;
    const chrome = await web.chrome();
    if (version !== this.version || chrome !== this.chrome) this.reset(version, chrome);
    const key = web.req.originalUrl;
    let page = this.pages.get(key);
    if (!page) {
      let document: string;
      web.templating = true;
      try {
        const outcome = await handler(web);
        if ("redirect" in outcome || !cacheable(outcome)) return outcome;
        document = (await web.site.render(web, outcome)).value;
      } finally {
        web.templating = false;
      }
      page = split(document);
      if (!web.personal && this.catalog.version === version && (await web.chrome()) === chrome) this.store(key, page);
    }
    const chunks = page.map((part) => (typeof part === "string" ? Buffer.from(web.shopperMarkup(part).value) : part));
    sendHtml(web.res, 200, Buffer.concat(chunks));
    return undefined;
  }

  private store(key: string, page: Page): void {
    const size = page.reduce((sum, part) => sum + part.length, key.length);
    if (this.pages.size >= MAX_ENTRIES || this.bytes + size > MAX_BYTES) this.reset(this.version, this.chrome);
    this.pages.set(key, page);
    this.bytes += size;
  }

  private reset(version: number, chrome: Chrome | undefined): void {
    this.pages = new Map();
    this.bytes = 0;
    this.version = version;
    this.chrome = chrome;
  }
}

function cacheable(view: View): boolean {
  return (view.status ?? 200) === 200 && view.headers === undefined;
}

function split(document: string): Page {
  const parts: Array<Buffer | ShopperSlot> = [];
  let last = 0;
  for (const match of document.matchAll(MARKERS)) {
    parts.push(Buffer.from(document.slice(last, match.index)), SLOTS.find((slot) => slotMarker(slot) === match[0])!);
    last = match.index + match[0].length;
  }
  parts.push(Buffer.from(document.slice(last)));
  return parts;
}
