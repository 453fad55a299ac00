// ACP order events: when an order comes from an ACP checkout session made with an API key that names a webhook URL
// and a signing secret, `order_create` goes to that URL from the durable outbox, in the completion's transaction,
// signed with Merchant-Signature. The body is the whole order object, as the spec asks (not a delta).
import { MERCHANT_SIGNATURE } from "../../core/outbox/merchant-signature.ts";
import type { ToolContext } from "../context.ts";

export async function enqueueAcpOrderEvent(ctx: ToolContext, type: "order_create" | "order_update", order: { id: string; status: string }, checkoutId: string): Promise<void> {
  const keyId = ctx.caller.kind === "key" ? ctx.caller.keyId : undefined;
  if (!keyId) return;
  const key = await ctx.db.apiKey.findUnique({ where: { id: keyId }, select: { acpWebhookUrl: true, acpSigningSecret: true } });
  if (!key?.acpWebhookUrl || !key.acpSigningSecret) return;
  const permalink = `${ctx.config.publicBaseUrl}/orders/${encodeURIComponent(order.id)}/pay?token=${ctx.services.sign(`order-payment:${order.id}`)}`;
  const body = JSON.stringify({
    type,
    data: { type: "order", id: order.id, checkout_session_id: checkoutId, order_number: order.id, permalink_url: permalink, status: order.status === "paid" ? "confirmed" : "created" },
  });
  await ctx.services.outbox.enqueue(ctx, { type: `acp.${type}`, url: key.acpWebhookUrl, body, signer: MERCHANT_SIGNATURE, keyRef: `api-key:${keyId}` });
}
