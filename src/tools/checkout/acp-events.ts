// ACP order events: when an order comes from an ACP checkout session made with an API key that names a webhook URL
// and a signing secret, `order_create` (on completion) and `order_update` (on every later status, tracking, fulfilment
// or adjustment change) go to that URL from the durable outbox, in the transaction of the change, signed with
// Merchant-Signature. The body is the whole order object, as the spec asks (not a delta); the ACP door registers how
// it is written (the protocol's shapes live in the door), and this module gathers the facts it is written from.
import { MERCHANT_SIGNATURE } from "../../core/outbox/merchant-signature.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import type { SessionView } from "./schemas.ts";
import { storedView } from "./service.ts";

export type AcpOrderEvent = "order_create" | "order_update";

/** What an ACP order event is written from: the order row, the session it was placed from, its status history. */
export interface AcpOrderFacts {
  order: Order;
  session: SessionView;
  /** The order's status changes, oldest first. */
  history: Array<{ toStatus: string; createdAt: Date }>;
  /** The order's page that works without a session cookie. */
  permalink: string;
  /** Money given back, from the order's payment ledger, oldest first: refunds and store credit. */
  refunds: Array<{ id: string; kind: "refund" | "store_credit"; amountDkk: bigint; createdAt: Date }>;
}

/** How the ACP door writes an order event body. */
export type AcpOrderFormat = (facts: AcpOrderFacts, type: AcpOrderEvent) => unknown;

let format: AcpOrderFormat | undefined;

/** The ACP door registers its event body at start (re-registering replaces). */
export function registerAcpOrderFormat(write: AcpOrderFormat): void {
  format = write;
}

/** Enqueues the event when the order came from a completed ACP session whose key has a webhook URL and a secret. */
export async function enqueueAcpOrderEvent(ctx: ToolContext, type: AcpOrderEvent, orderId: string): Promise<void> {
  // The session is linked to its order only once completion has recorded it: the `paid` change inside
  // checkout.complete finds nothing here, and order_create follows instead.
  const session = await ctx.db.checkoutSession.findUnique({ where: { orderId } });
  if (!session || session.protocol !== "acp" || !session.owner.startsWith("key:")) return;
  const keyId = session.owner.slice("key:".length);
  const key = await ctx.db.apiKey.findUnique({ where: { id: keyId }, select: { acpWebhookUrl: true, acpSigningSecret: true } });
  if (!key?.acpWebhookUrl || !key.acpSigningSecret) return;
  if (!format) throw new Error("No ACP order event format is registered (the runtime registers it at start).");
  const order = await ctx.db.order.findUniqueOrThrow({ where: { id: orderId } });
  const history = await ctx.db.orderStatusChange.findMany({ where: { orderId }, orderBy: { createdAt: "asc" }, select: { toStatus: true, createdAt: true } });
  const permalink = `${ctx.config.publicBaseUrl}/orders/${encodeURIComponent(orderId)}/pay?token=${ctx.services.sign(`order-payment:${orderId}`)}`;
  const returned = await ctx.db.paymentEntry.findMany({ where: { orderId, kind: { in: ["refund", "store_credit"] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const refunds = returned.map((entry) => ({ id: entry.id, kind: entry.kind as "refund" | "store_credit", amountDkk: entry.amountDkk, createdAt: entry.createdAt }));
  const body = JSON.stringify(format({ order, session: storedView(session, ctx.now()), history, permalink, refunds }, type));
  await ctx.services.outbox.enqueue(ctx, { type: `acp.${type}`, url: key.acpWebhookUrl, body, signer: MERCHANT_SIGNATURE, keyRef: `api-key:${keyId}` });
}

/** order_update for an order that came from ACP (a cheap no-op for every other order). */
export async function emitAcpOrderUpdate(ctx: ToolContext, order: Pick<Order, "id" | "acpSessionId">): Promise<void> {
  if (order.acpSessionId) await enqueueAcpOrderEvent(ctx, "order_update", order.id);
}
