// Shared order shapes (SPEC.md "Order summary", "Order detail") and their mapping from Prisma rows.
import { z } from "zod";
import { iso } from "../../core/json.ts";
import type { Order, OrderItem } from "../../generated/prisma/client.ts";
import { oere } from "../shared/amounts.ts";
import { isoDateTime } from "../shared/timestamps.ts";

export const orderId = z.string().min(1).max(200).describe("Order id.");

/** The order number people read and type (#1001 → 1001); bounded by the column's integer range. */
export const orderNumber = z.number().int().min(1).max(2_147_483_647).describe("As people see it (#1001 → 1001).");

const nullableTime = (what: string) => isoDateTime.nullable().describe(`${what} (ISO 8601 UTC), or null.`);

const orderItem = z.strictObject({
  id: z.string(),
  orderId: z.string(),
  productId: z.string(),
  productName: z.string().describe("Product name when ordered."),
  unitPriceDkk: oere("Unit price incl. VAT when ordered"),
  quantity: z.number().int().min(1),
  variantId: z.string().nullable(),
  variantSku: z.string().nullable(),
  variantAttributes: z.json().nullable().describe("Snapshot of the chosen variant's attributes (opaque JSON), or null."),
});

export const orderDetail = z.strictObject({
  id: z.string(),
  userId: z.string().nullable().describe("The customer's id, or null for a guest order."),
  email: z.string(),
  status: z.string().describe("Order status (see orders.update_status for the values)."),
  shippingName: z.string(),
  shippingAddress: z.string(),
  shippingZip: z.string(),
  shippingCity: z.string(),
  billingName: z.string().nullable(),
  billingAddress: z.string().nullable(),
  billingZip: z.string().nullable(),
  billingCity: z.string().nullable(),
  billingCountry: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  subtotalDkk: oere("Sum of the lines"),
  shippingDkk: oere("Shipping"),
  discountDkk: oere("Discount"),
  totalDkk: oere("Total paid or to pay, incl. VAT"),
  vatOere: oere("VAT included in the total").nullable(),
  invoiceProvider: z.string().nullable(),
  invoiceId: z.string().nullable(),
  invoicePdfUrl: z.string().nullable(),
  discountCode: z.string().nullable(),
  isAiGenerated: z.boolean().describe("True when an AI agent placed the order."),
  aiAgentSource: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  estDeliveryFrom: nullableTime("Earliest estimated delivery"),
  estDeliveryTo: nullableTime("Latest estimated delivery"),
  createdAt: isoDateTime,
  paymentProviderPaymentIntentId: z.string().nullable().describe("The payment provider's payment intent id, or null."),
  paymentMethod: z.string().nullable(),
  paidAt: nullableTime("When it was paid"),
  confirmationEmailSentAt: nullableTime("When the confirmation e-mail was last sent"),
  refundedAt: nullableTime("When it was last refunded"),
  disputedAt: nullableTime("When the payment was disputed"),
  currency: z.string(),
  fxRate: z.number(),
  channel: z.string(),
  acpSessionId: z.string().nullable(),
  items: z.array(orderItem),
});

export const orderSummary = z.strictObject({
  id: z.string(),
  email: z.string(),
  shippingName: z.string(),
  status: z.string(),
  subtotalDkk: oere("Sum of the lines"),
  discountDkk: oere("Discount"),
  shippingDkk: oere("Shipping"),
  totalDkk: oere("Total incl. VAT"),
  discountCode: z.string().nullable(),
  itemCount: z.number().int().min(0).describe("Units ordered: the sum of the lines' quantities."),
  items: z.array(z.strictObject({ productName: z.string(), quantity: z.number().int(), unitPriceDkk: oere("Unit price") })),
  createdAt: isoDateTime,
});

export type OrderWithItems = Order & { items: OrderItem[] };

/** Items in a stable order (insertion order by id is not guaranteed, so by product name then id). */
export const itemOrder = [{ productName: "asc" as const }, { id: "asc" as const }];

function toItem(item: OrderItem): z.input<typeof orderItem> {
  return {
    id: item.id,
    orderId: item.orderId,
    productId: item.productId,
    productName: item.productName,
    unitPriceDkk: Number(item.unitPriceDkk),
    quantity: item.quantity,
    variantId: item.variantId,
    variantSku: item.variantSku,
    variantAttributes: (item.variantAttributes ?? null) as z.input<typeof orderItem>["variantAttributes"],
  };
}

export function toOrderDetail(o: OrderWithItems): z.input<typeof orderDetail> {
  return {
    id: o.id,
    userId: o.userId,
    email: o.email,
    status: o.status,
    shippingName: o.shippingName,
    shippingAddress: o.shippingAddress,
    shippingZip: o.shippingZip,
    shippingCity: o.shippingCity,
    billingName: o.billingName,
    billingAddress: o.billingAddress,
    billingZip: o.billingZip,
    billingCity: o.billingCity,
    billingCountry: o.billingCountry,
    phoneNumber: o.phoneNumber,
    subtotalDkk: Number(o.subtotalDkk),
    shippingDkk: Number(o.shippingDkk),
    discountDkk: Number(o.discountDkk),
    totalDkk: Number(o.totalDkk),
    vatOere: o.vatOere === null ? null : Number(o.vatOere),
    invoiceProvider: o.invoiceProvider,
    invoiceId: o.invoiceId,
    invoicePdfUrl: o.invoicePdfUrl,
    discountCode: o.discountCode,
    isAiGenerated: o.isAiGenerated,
    aiAgentSource: o.aiAgentSource,
    carrier: o.carrier,
    trackingNumber: o.trackingNumber,
    trackingUrl: o.trackingUrl,
    estDeliveryFrom: iso(o.estDeliveryFrom),
    estDeliveryTo: iso(o.estDeliveryTo),
    createdAt: o.createdAt.toISOString(),
    paymentProviderPaymentIntentId: o.paymentProviderPaymentIntentId,
    paymentMethod: o.paymentMethod,
    paidAt: iso(o.paidAt),
    confirmationEmailSentAt: iso(o.confirmationEmailSentAt),
    refundedAt: iso(o.refundedAt),
    disputedAt: iso(o.disputedAt),
    currency: o.currency,
    fxRate: o.fxRate,
    channel: o.channel,
    acpSessionId: o.acpSessionId,
    items: o.items.map(toItem),
  };
}

export function toOrderSummary(o: OrderWithItems): z.input<typeof orderSummary> {
  return {
    id: o.id,
    email: o.email,
    shippingName: o.shippingName,
    status: o.status,
    subtotalDkk: Number(o.subtotalDkk),
    discountDkk: Number(o.discountDkk),
    shippingDkk: Number(o.shippingDkk),
    totalDkk: Number(o.totalDkk),
    discountCode: o.discountCode,
    itemCount: o.items.reduce((sum, item) => sum + item.quantity, 0),
    items: o.items.map((item) => ({ productName: item.productName, quantity: item.quantity, unitPriceDkk: Number(item.unitPriceDkk) })),
    createdAt: o.createdAt.toISOString(),
  };
}
