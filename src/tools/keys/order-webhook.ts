// An agent platform's order webhook, set on its API key (keys.set_acp): where the order events of the checkouts it made
// go, and the secret they are signed with; read when an event is written and again when it is signed for delivery.
import type { Db } from "../../core/db.ts";

/** The key's webhook URL when it has one and a signing secret (events go out only signed), else null. */
export async function keyOrderWebhook(scope: { db: Db }, keyId: string): Promise<{ url: string } | null> {
  const key = await scope.db.apiKey.findUnique({ where: { id: keyId }, select: { acpWebhookUrl: true, acpSigningSecret: true } });
  return key?.acpWebhookUrl && key.acpSigningSecret ? { url: key.acpWebhookUrl } : null;
}

/** The key's signing secret, or null when it has none or was revoked (its waiting events are no longer signed). */
export async function keyWebhookSecret(scope: { db: Db }, keyId: string): Promise<string | null> {
  const row = await scope.db.apiKey.findUnique({ where: { id: keyId }, select: { acpSigningSecret: true, revokedAt: true } });
  return row && !row.revokedAt ? row.acpSigningSecret : null;
}
