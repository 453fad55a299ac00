// cart.checkout: turn the session cart into an order in pending_payment (paid when a gift card covers it) and return
// where to pay.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { channelOf, checkedAddress, placeOrder, postal } from "../orders/place.ts";
import { getSection } from "../settings/settings-document.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";
import { chooseDelivery } from "./delivery.ts";
import { defineTool, WRITE } from "../tool.ts";
import { oere } from "../shared/amounts.ts";
import { CartStore, sessionOf } from "./cart-store.ts";
import { giftCardCode } from "../money/gift-card-codes.ts";

export default defineTool({
  name: "cart.checkout",
  description:
    "Order the shopper's cart at current prices (stock reserved, cart emptied, order pending_payment); a giftCardCode " +
    "pays what it can, paymentUrl the rest. Returns {orderId, status, totalDkk, paymentUrl}.",
  errors: [
    { status: 422, code: "cart_empty" },
    { status: 422, code: "shipping_address_required" },
    { status: 422, code: "insufficient_stock" },
    { status: 422, code: "discount_unavailable" },
    { status: 422, code: "giftcard_expired" },
    { status: 422, code: "giftcard_insufficient_balance" },
    { status: 422, code: "unknown_delivery_method" },
    { status: 422, code: "pickup_point_required" },
    { status: 422, code: "invalid_pickup_point" },
    { status: 422, code: "invalid_address" },
    { status: 404, when: "unknown gift card" },
  ],
  input: z.strictObject({
    dropDiscount: z.boolean().default(false).describe("Drop a discount code that stopped applying (else refused)."),
    giftCardCode: giftCardCode.optional(),
    deliveryMethodId: z.string().min(1).max(50).optional().describe("From cart.delivery_options; default: the first."),
    pickupPointId: z.string().min(1).max(50).optional().describe("Parcel shop, for a pickup method."),
    billingAddress: z.strictObject(postal).optional().describe("If different."),
  }),
  output: z.strictObject({
    orderId: z.string(),
    status: z.enum(["pending_payment", "paid"]).describe("paid when a gift card covered the total."),
    totalDkk: oere("Total to pay incl. VAT and shipping"),
    paymentUrl: z.url().describe("Where the shopper pays (Stripe Checkout, or the bank-transfer instructions page)."),
  }),
  scope: "cart:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{}],
  async handler({ dropDiscount, giftCardCode, deliveryMethodId, pickupPointId, billingAddress }, ctx) {
    const session = sessionOf(ctx);
    const cart = await CartStore.open(ctx, true);
    const { lines, shipping, discountCode } = cart.state;
    if (lines.length === 0) throw new Refused("cart_empty", "The cart is empty; add products with cart.add first.");
    if (!shipping) throw new Refused("shipping_address_required", "Set the shipping address with cart.set_shipping_address first.");
    const [shippingSettings, ownFreeFrom] = await Promise.all([getSection(ctx.db, "shipping"), getFreeShippingFrom(ctx.db)]);
    const delivery = chooseDelivery(shippingSettings, deliveryMethodId, pickupPointId, ownFreeFrom);
    const billing = billingAddress ? { name: billingAddress.name, ...checkedAddress("Billing address", billingAddress), country: "DK" } : null;
    const { order, paymentUrl } = await placeOrder(ctx, {
      lines,
      discountCode,
      dropInvalidDiscount: dropDiscount,
      email: shipping.email,
      phone: shipping.phone,
      shipping,
      billing,
      delivery,
      channel: channelOf(ctx.door),
      aiAgentSource: null,
      // The one tie between this browser and the order: the session reaches it by this id and is never signed in to the
      // customer (an e-mail typed at checkout proves nothing; that takes the login code).
      sessionId: session.persistent ? session.id : null,
      giftCardCode: giftCardCode ?? null,
    });
    await cart.clear(order.id);
    return { orderId: order.id, status: order.status === "paid" ? ("paid" as const) : ("pending_payment" as const), totalDkk: Number(order.totalDkk), paymentUrl };
  },
});
