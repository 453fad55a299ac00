// The Standard Webhooks signer (webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256>"), signed by
// the maintained `standardwebhooks` library with a "whsec_" secret that `secretOf` finds from the event's key reference.
import { Webhook } from "standardwebhooks";
import type { Signer } from "./signers.ts";

export const STANDARD_WEBHOOKS = "standard-webhooks";

export function standardWebhooksSigner(secretOf: (keyRef: string) => Promise<string | null>): Signer {
  return {
    name: STANDARD_WEBHOOKS,
    async headers({ id, timestamp, body, keyRef }) {
      const secret = await secretOf(keyRef);
      if (!secret) throw new Error(`no signing secret for ${keyRef}`);
      return {
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign(id, timestamp, body),
      };
    },
  };
}
