// Shared shapes of the cart area: the one cart summary every cart.* tool returns, the shipping address.
import { z } from "zod";
import { oere } from "../shared/amounts.ts";

const shippingAddressOutput = z.strictObject({
  name: z.string(),
  address: z.string(),
  zip: z.string().describe("Danish 4-digit postal code."),
  city: z.string().describe("Official city name of the postal code."),
  email: z.string(),
  phone: z.string().nullable(),
});

const cartLine = z.strictObject({
  lineId: z.string().describe("Id of the cart line (for cart.update_quantity and cart.remove)."),
  productSlug: z.string(),
  productName: z.string(),
  variantSku: z.string().nullable().describe("SKU of the chosen variant, or null."),
  variantAttributes: z.record(z.string(), z.string()).nullable().describe("Attributes of the chosen variant, e.g. {\"size\": \"M\"}, or null."),
  quantity: z.number().int().min(1).max(100),
  unitPriceDkk: oere("Unit price incl. VAT"),
  lineTotalDkk: oere("unitPriceDkk × quantity"),
  stock: z.number().int().describe("Units currently in stock (of the variant for a variant line)."),
});

export const cartSummary = z.strictObject({
  lines: z.array(cartLine).describe("The cart lines, oldest first."),
  itemCount: z.number().int().min(0).describe("Total units in the cart."),
  subtotalDkk: oere("Sum of the line totals"),
  discountCode: z.string().nullable().describe("The discount code on the cart (uppercase), or null."),
  discountDkk: oere("Discount taken off the subtotal (0 when the code no longer applies)"),
  discountNotice: z.string().nullable().describe("Why the cart's discount code gives no discount now (then cart.checkout refuses unless dropDiscount is true), or null."),
  shippingDkk: oere("Shipping (0 for an empty cart or above the free-shipping threshold)"),
  vatOere: oere("VAT included in the total (25 %: total / 5, rounded half up)"),
  totalDkk: oere("subtotal − discount + shipping, VAT included"),
  shippingAddress: shippingAddressOutput.nullable().describe("The address set with cart.set_shipping_address, or null."),
});

export type CartSummary = z.input<typeof cartSummary>;
export type ShippingAddress = z.output<typeof shippingAddressOutput>;
