// Shared shapes of the returns.* tools: the return's id, kinds, statuses and the compact view every tool answers with.
import { z } from "zod";
import type { GiftCard, Order, OrderItem, ReturnItem, ReturnRequest } from "../../generated/prisma/client.ts";
import { codeHint } from "../money/gift-card-codes.ts";
import { oere } from "../shared/amounts.ts";
import { isoDateTime } from "../shared/timestamps.ts";

export const RETURN_KINDS = ["withdrawal", "complaint"] as const;
export type ReturnKind = (typeof RETURN_KINDS)[number];

export const RETURN_STATUSES = ["requested", "approved", "received", "refunded", "rejected"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const returnId = z.string().min(1).max(200).describe("From returns.list.");

export const returnView = z.strictObject({
  returnId: z.string(),
  orderId: z.string(),
  orderNumber: z.number().int().describe("The order's number as people see it (#1001)."),
  kind: z.enum(RETURN_KINDS),
  status: z.enum(RETURN_STATUSES),
  reason: z.string(),
  rejectReason: z.string().nullable(),
  items: z.array(z.strictObject({ orderItemId: z.string(), productName: z.string(), quantity: z.number().int().min(1) })),
  exchangeVariantId: z.string().nullable(),
  replacementOrderId: z.string().nullable().describe("The order shipping the exchange, once received."),
  refundDkk: oere("Refunded at receipt").nullable(),
  refundTo: z.enum(["original", "store_credit", "gift_card"]).nullable().describe("Where the refund goes (asked at request) or went."),
  refundGiftCard: z.string().nullable().describe("With gift_card: the card's last four symbols."),
  refundDueBy: isoDateTime.nullable().describe("Approval + 14 days: the refund is owed by then."),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export type ReturnWithItems = ReturnRequest & {
  items: Array<ReturnItem & { orderItem: OrderItem }>;
  order: Pick<Order, "number">;
  refundGiftCard: Pick<GiftCard, "code"> | null;
};

/** The units of a return (asked for or stored) as pricing reads them: each line's quantity and what it was ordered at. */
export interface ReturnUnits {
  exchangeVariantId: string | null;
  items: Array<{ orderItemId: string; quantity: number; orderItem: Pick<OrderItem, "unitPriceDkk"> }>;
}

/** Items with their order line, in the order they were given, and the order's number. */
export const withItems = {
  items: { include: { orderItem: true }, orderBy: { id: "asc" as const } },
  order: { select: { number: true } },
  refundGiftCard: { select: { code: true } },
};

export function toReturnView(ret: ReturnWithItems): z.input<typeof returnView> {
  return {
    returnId: ret.id,
    orderId: ret.orderId,
    orderNumber: ret.order.number,
    kind: ret.kind as ReturnKind,
    status: ret.status as ReturnStatus,
    reason: ret.reason,
    rejectReason: ret.rejectReason,
    items: ret.items.map((item) => ({ orderItemId: item.orderItemId, productName: item.orderItem.productName, quantity: item.quantity })),
    exchangeVariantId: ret.exchangeVariantId,
    replacementOrderId: ret.replacementOrderId,
    refundDkk: ret.refundDkk === null ? null : Number(ret.refundDkk),
    refundTo: (ret.refundTo as "original" | "store_credit" | "gift_card" | null) ?? null,
    refundGiftCard: ret.refundGiftCard ? codeHint(ret.refundGiftCard.code) : null,
    refundDueBy: ret.refundDueBy?.toISOString() ?? null,
    createdAt: ret.createdAt.toISOString(),
    updatedAt: ret.updatedAt.toISOString(),
  };
}

/** The short reference shoppers write on the parcel and staff search for: R- and the id's last eight characters. */
export function returnReference(ret: Pick<ReturnRequest, "id">): string {
  return `R-${ret.id.slice(-8).toUpperCase()}`;
}

/** The return as audit entries keep it: its row and its items' lines and quantities. */
export function returnSnapshot({ order: _order, refundGiftCard: _card, ...ret }: ReturnWithItems) {
  return { ...ret, items: ret.items.map((item) => ({ orderItemId: item.orderItemId, quantity: item.quantity })) };
}
