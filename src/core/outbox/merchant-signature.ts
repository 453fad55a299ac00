// The ACP order-event signer: `Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
// as the Agentic Commerce Protocol's webhook spec defines it, with the secret `secretOf` finds from the event's key
// reference (the agent platform's API key and its ACP signing secret).
import crypto from "node:crypto";
import type { Signer } from "./signers.ts";

export const MERCHANT_SIGNATURE = "acp-merchant-signature";

export function merchantSignature(secret: string, timestamp: Date, body: string): string {
  const t = Math.floor(timestamp.getTime() / 1000);
  return `t=${t},v1=${crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

export function merchantSignatureSigner(secretOf: (keyRef: string) => Promise<string | null>): Signer {
  return {
    name: MERCHANT_SIGNATURE,
    async headers({ id, timestamp, body, keyRef }) {
      const secret = await secretOf(keyRef);
      if (!secret) throw new Error(`no signing secret for ${keyRef}`);
      return { "Merchant-Signature": merchantSignature(secret, timestamp, body), "Request-Id": id, Timestamp: timestamp.toISOString() };
    },
  };
}
