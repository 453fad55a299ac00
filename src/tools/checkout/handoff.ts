// The buyer's hand-off link of a checkout session (UCP's continue_url): whoever holds it may open that one session in
// the storefront, fill in what is missing and complete it, until the session expires. Signed like the payment links
// (HMAC-SHA256 with the shop's secret, `collaborators.sign`) over the session id and the link's expiry.
import crypto from "node:crypto";

/** HMAC-SHA256 of a text with the shop's secret, base64url (what `collaborators.sign` does). */
export type Sign = (text: string) => string;

/** The storefront path of a session's hand-off page. */
export const HANDOFF_PATH = "/checkout/agent";

export function hmacSigner(secret: string): Sign {
  return (text) => crypto.createHmac("sha256", secret).update(text).digest("base64url");
}

const signed = (sessionId: string, expires: number) => `checkout-handoff:${sessionId}:${expires}`;

/** The signed link that opens the session for the buyer; it stops working at `expiresAt` (the session's own expiry). */
export function handoffUrl(publicBaseUrl: string, sign: Sign, sessionId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${publicBaseUrl}${HANDOFF_PATH}/${encodeURIComponent(sessionId)}?expires=${expires}&token=${sign(signed(sessionId, expires))}`;
}

/** The order's own page for whoever holds the link: its signed payment page (as ACP's permalink and the payment e-mails). */
export function orderPermalink(publicBaseUrl: string, sign: Sign, orderId: string): string {
  return `${publicBaseUrl}/orders/${encodeURIComponent(orderId)}/pay?token=${sign(`order-payment:${orderId}`)}`;
}

/** What a presented link is: good, signed but past its expiry, or not one of ours (forged or altered). */
export type HandoffCheck = "valid" | "expired" | "invalid";

export function checkHandoff(sign: Sign, sessionId: string, expires: string, token: string, now: Date): HandoffCheck {
  if (!/^\d{1,12}$/.test(expires) || !/^[\w-]{1,100}$/.test(token)) return "invalid";
  const expected = Buffer.from(sign(signed(sessionId, Number(expires))));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return "invalid";
  return Number(expires) * 1000 <= now.getTime() ? "expired" : "valid";
}
