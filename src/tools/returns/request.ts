// returns.request: a shopper wants to send goods back: withdrawal (fortrydelsesret) or complaint (reklamation), or an exchange.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { orderId } from "../orders/schemas.ts";
import { defineTool, WRITE } from "../tool.ts";
import { giftCardCode } from "../money/gift-card-codes.ts";
import { destinationOf, refundTo } from "../money/refunds.ts";
import { assertInStock, exchangeVariant, payerCard } from "./exchange.ts";
import { RETURN_KINDS, returnSnapshot, returnView, toReturnView, withItems } from "./schemas.ts";
import { assertReturnable, heldUnits, loadOrderForReturn } from "./return-rules.ts";
import { emitReturnRequested } from "./webhook-events.ts";

const item = z.strictObject({
  orderItemId: z.string().min(1).max(200).describe("orders.get items[].id."),
  quantity: z.number().int().min(1).max(10000).describe("Units of that line."),
});

export default defineTool({
  name: "returns.request",
  description:
    "Open a return of shipped goods (unshipped: orders.cancel): withdrawal or complaint (windows: returns.policy). " +
    "Returns the return.",
  errors: [
    { status: 422, code: "not_shipped" },
    { status: 422, code: "order_closed" },
    { status: 422, code: "return_window_closed" },
    { status: 422, code: "not_returnable" },
    { status: 422, code: "quantity_exceeds_order" },
    { status: 422, code: "invalid_exchange_variant" },
    { status: 422, code: "insufficient_stock" },
    { status: 422, code: "insufficient_balance", when: "giftCardCode cannot cover a dearer exchange" },
    { status: 422, code: "giftcard_expired" },
    { status: 404, when: "unknown order, line or gift card" },
  ],
  input: z.strictObject({
    orderId,
    items: z
      .array(item)
      .min(1)
      .max(100)
      .refine((items) => new Set(items.map((i) => i.orderItemId)).size === items.length, "Name each order line once")
      .describe("What goes back."),
    kind: z.enum(RETURN_KINDS).describe("withdrawal: changed mind; complaint: defect, wrong goods."),
    reason: z.string().trim().min(1).max(1000).describe("The shopper's reason."),
    exchangeVariantId: z.string().min(1).max(200).optional().describe("Same product's variant, instead of a refund."),
    giftCardCode: giftCardCode.optional().describe("Pays a dearer exchange's difference."),
    refundTo,
  }).refine((v) => !v.giftCardCode || v.exchangeVariantId, { message: "giftCardCode pays an exchange: give exchangeVariantId", path: ["giftCardCode"] }),
  output: returnView,
  scope: "returns:write",
  anonymous: false,
  audited: true,
  sensitive: ["giftCardCode"],
  shopper: { order: (input) => input.orderId },
  annotations: WRITE,
  examples: [{ orderId: "demo-order-22", items: [{ orderItemId: "demo-order-22-line-1", quantity: 1 }], kind: "withdrawal", reason: "Passede ikke" }],
  async handler(input, ctx) {
    const order = await loadOrderForReturn(ctx, input.orderId, { lock: true });
    await assertReturnable(ctx, order, input.kind);
    const held = await heldUnits(ctx.db, order.id);
    const lines = input.items.map(({ orderItemId, quantity }) => {
      const line = order.items.find((i) => i.id === orderItemId);
      if (!line) throw new NotFound(`Order ${order.id} has no line "${orderItemId}".`);
      const left = line.quantity - (held.get(line.id) ?? 0);
      if (quantity > left) {
        throw new Refused("quantity_exceeds_order", `${line.productName}: ${line.quantity} ordered, ${left} not yet in a return; ${quantity} asked.`);
      }
      return line;
    });
    if (input.kind === "withdrawal") {
      const fixed = await ctx.db.product.findMany({ where: { id: { in: lines.map((l) => l.productId) }, returnable: false }, select: { name: true } });
      if (fixed.length) {
        throw new Refused("not_returnable", `${fixed.map((p) => p.name).join(", ")} cannot be withdrawn from (made to order); a complaint about a defect is still possible.`);
      }
    }
    let giftCardId: string | null = null;
    if (input.exchangeVariantId) {
      const variant = await exchangeVariant(ctx, input.exchangeVariantId, lines);
      assertInStock(variant, input.items.reduce((sum, i) => sum + i.quantity, 0));
      if (input.giftCardCode) {
        const units = { exchangeVariantId: variant.id, items: input.items.map((i, n) => ({ ...i, orderItem: lines[n]! })) };
        giftCardId = (await payerCard(ctx, order, units, input.giftCardCode)).id;
      }
    }
    // Where the refund is to go is kept with the return, so receipt pays it there (the card checked again then).
    const destination = await destinationOf(ctx, input.refundTo);
    const now = ctx.now();
    const created = await ctx.db.returnRequest.create({
      data: {
        orderId: order.id,
        kind: input.kind,
        reason: input.reason,
        exchangeVariantId: input.exchangeVariantId ?? null,
        giftCardId,
        refundTo: destination.to,
        refundGiftCardId: destination.to === "gift_card" ? destination.card.id : null,
        requestedBy: ctx.caller.actor,
        createdAt: now,
        updatedAt: now,
        items: { create: input.items.map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity })) },
      },
      include: withItems,
    });
    await ctx.audit({ subjectType: "return", subjectId: created.id, before: null, after: returnSnapshot(created) });
    await emitReturnRequested(ctx, created);
    return toReturnView(created);
  },
});
