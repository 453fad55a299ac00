// orders.create: staff or an agent places an order from line items; same pricing, stock and payment path as checkout.
import { z } from "zod";
import { resolveItems } from "../cart/cart-store.ts";
import { defineTool, WRITE } from "../tool.ts";
import { oere } from "../shared/amounts.ts";
import { channelOf, checkedAddress, placeOrder, postal } from "./place.ts";

export default defineTool({
  name: "orders.create",
  description:
    "Create an order for a customer (phone, mail, agents) at catalogue prices, taking stock; it starts pending_payment " +
    "(paid: orders.update_status). Returns {orderId, status, *Dkk amounts, vatOere, paymentUrl}.",
  errors: [
    { status: 422, code: "insufficient_stock" },
    { status: 422, code: "discount_unavailable" },
    { status: 422, code: "invalid_address" },
    { status: 422, code: "variant_required" },
  ],
  input: z.strictObject({
    items: z.array(z.strictObject({
      productSlug: z.string().min(1),
      variantSku: z.string().min(1).max(100).optional().describe("Needed for variant products."),
      quantity: z.number().int().min(1).max(100),
    })).min(1).max(50).describe("Order lines."),
    email: z.email().max(254).describe("Gets the confirmation."),
    phone: z.string().trim().regex(/^\+?[0-9 ]{8,20}$/, "8 to 20 digits, optional leading +").optional().describe("Customer phone."),
    shipping: z.strictObject(postal).describe("Danish shipping address."),
    billing: z.strictObject({ ...postal, country: z.literal("DK").default("DK") }).optional().describe("Billing address when it differs."),
    channel: z.enum(["web", "mcp", "chat", "phone", "email", "store"]).optional().describe("Default: the calling door."),
    aiAgentSource: z.string().trim().min(1).max(100).optional().describe("AI agent placing it (marks it AI-generated)."),
    discountCode: z.string().trim().min(1).max(100).optional().describe("Any case."),
  }),
  output: z.strictObject({
    orderId: z.string(),
    status: z.literal("pending_payment"),
    subtotalDkk: oere("Sum of the lines"),
    discountDkk: oere("Discount"),
    shippingDkk: oere("Shipping"),
    vatOere: oere("VAT included in the total"),
    totalDkk: oere("Total incl. VAT"),
    paymentUrl: z.url().describe("Where the customer pays."),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{
    items: [{ productSlug: "gucci-oversize-bold-74", quantity: 1 }],
    email: "kunde@example.dk",
    shipping: { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" },
  }],
  async handler(input, ctx) {
    const resolved = await resolveItems(ctx.db, input.items);
    const lines = resolved.map(({ product, variant }, i) => ({ productId: product.id, variantId: variant?.id ?? null, quantity: input.items[i]!.quantity }));
    const shipping = { name: input.shipping.name, ...checkedAddress("Shipping address", input.shipping) };
    const billing = input.billing ? { name: input.billing.name, country: input.billing.country, ...checkedAddress("Billing address", input.billing) } : null;
    const { order, paymentUrl } = await placeOrder(ctx, {
      lines,
      discountCode: input.discountCode ?? null,
      dropInvalidDiscount: false,
      email: input.email,
      phone: input.phone ?? null,
      shipping,
      billing,
      channel: input.channel ?? channelOf(ctx.door),
      aiAgentSource: input.aiAgentSource ?? null,
      sessionId: null,
      known: { products: resolved.map(({ product }) => product), variants: resolved.flatMap(({ variant }) => (variant ? [variant] : [])) },
    });
    return {
      orderId: order.id,
      status: "pending_payment" as const,
      subtotalDkk: Number(order.subtotalDkk),
      discountDkk: Number(order.discountDkk),
      shippingDkk: Number(order.shippingDkk),
      vatOere: Number(order.vatOere),
      totalDkk: Number(order.totalDkk),
      paymentUrl,
    };
  },
});
