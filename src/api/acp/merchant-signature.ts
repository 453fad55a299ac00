// The ACP order-event signer: `Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
// as the Agentic Commerce Protocol's webhook spec defines it, with the signing secret of the agent platform's API key
// the event's key reference names (`api-key:<id>`), looked up at delivery.
import crypto from "node:crypto";
import type { Signer } from "../../core/outbox/signers.ts";

export const MERCHANT_SIGNATURE = "acp-merchant-signature";

const KEY_REF = "api-key:";

/** The key reference an order event for this API key's platform is enqueued with. */
export function keyRefOf(keyId: string): string {
  return `${KEY_REF}${keyId}`;
}

export function merchantSignature(secret: string, timestamp: Date, body: string): string {
  const t = Math.floor(timestamp.getTime() / 1000);
  return `t=${t},v1=${crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** `secretOf` finds the key's secret (null when it has none or was revoked: the attempt fails). */
export function merchantSignatureSigner(secretOf: (keyId: string) => Promise<string | null>): Signer {
  return {
    name: MERCHANT_SIGNATURE,
    async headers({ id, timestamp, body, keyRef }) {
      const secret = keyRef.startsWith(KEY_REF) ? await secretOf(keyRef.slice(KEY_REF.length)) : null;
      if (!secret) throw new Error(`no signing secret for ${keyRef}`);
      return { "Merchant-Signature": merchantSignature(secret, timestamp, body), "Request-Id": id, Timestamp: timestamp.toISOString() };
    },
  };
}
