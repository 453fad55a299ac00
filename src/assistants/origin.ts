// Chats authenticate by cookie, so a browser may only open them from the shop's own pages: its Origin must be this host.
import type { IncomingMessage } from "node:http";

/**
 * True without an Origin header (not a browser: Node clients, curl, server-to-server) or when the Origin is the host the
 * request was sent to or the host of PUBLIC_BASE_URL. Defence in depth beside the SameSite=Lax cookies, which already
 * keep other sites' pages from sending them along.
 */
export function ownOrigin(req: Pick<IncomingMessage, "headers">, publicBaseUrl: string): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const { host } = new URL(origin);
    return host === req.headers.host || host === new URL(publicBaseUrl).host;
  } catch {
    return false;
  }
}
