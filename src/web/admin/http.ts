// HTTP helpers of the admin web: security headers, sending pages, telling browsers from scripts, safe redirects.
import type { Request, Response } from "express";

/** Strict CSP (no inline script or style), no framing, nothing cached: admin pages carry shop data. */
export const ADMIN_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
};

export function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).set(ADMIN_HEADERS).type("html").send(html);
}

/** A browser navigation or form post (redirect to the login page) rather than a script (401 problem). */
export function wantsHtml(req: Request): boolean {
  return (req.headers.accept ?? "").includes("text/html");
}

/** Only local admin paths are followed after sign-in, never another host. */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || !/^\/admin(?:[/?#][^\\\s]*)?$/.test(next) || next.startsWith("//")) return "/admin";
  return next;
}

/** A string field of an urlencoded form body ("" when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : "";
}
