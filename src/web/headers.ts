// The response headers of every HTML page (storefront, admin, payment page): strict CSP, nosniff, referrer and framing rules.
import type { Response } from "express";
import { Html } from "./html.ts";

/**
 * Scripts and styles only from this server (no inline code or style attributes), images also from https hosts
 * (product photos live on image hosts), fetch/WebSocket only to this server, forms only post here, no <base>
 * tricks and no framing (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

const SECURITY_HEADER_NAMES = Object.keys(SECURITY_HEADERS);

/**
 * Sends a whole HTML document (markup, or its UTF-8 bytes) with the security headers (a header the route already set,
 * e.g. a stricter Referrer-Policy, is kept). Pages are personal (CSRF tokens bound to the session, order and payment
 * details), so no shared cache keeps them.
 */
export function sendHtml(res: Response, status: number, document: Html | Buffer, cacheControl = "private, no-store"): void {
  const body = document instanceof Html ? document.value : document;
  for (const name of SECURITY_HEADER_NAMES) if (!res.hasHeader(name)) res.setHeader(name, SECURITY_HEADERS[name]!);
  // Node's own API rather than res.send: a page is a finished string, and send's conversions and freshness checks
  // cost a noticeable share of a page's time (HEAD still gets no body: Node drops it).
  res.statusCode = status;
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}
