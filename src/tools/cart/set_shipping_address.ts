// cart.set_shipping_address: the Danish delivery address and contact details used at checkout.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { validateAddress } from "../address/postal-codes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { cartSummary } from "./schemas.ts";
import { CartStore, summarize } from "./cart-store.ts";

export default defineTool({
  name: "cart.set_shipping_address",
  description:
    "Set the cart's shipping address and contact, Denmark only (city stored as officially named). Returns the cart " +
    "summary.",
  errors: [{ status: 422, code: "invalid_address" }],
  input: z.strictObject({
    name: z.string().trim().min(2).max(200).describe("Full name."),
    address: z.string().trim().min(2).max(200).describe("Street and number."),
    zip: z.string().regex(/^\d{4}$/, "Danish postal codes are 4 digits").describe("Danish postal code."),
    city: z.string().trim().min(1).max(100).describe("City of the postal code."),
    email: z.email().max(254).describe("Gets the confirmation."),
    phone: z.string().trim().regex(/^\+?[0-9 ]{8,20}$/, "8 to 20 digits, optional leading +").optional().describe("Phone number."),
  }),
  output: cartSummary,
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: UPDATE,
  examples: [{ name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", email: "mette@example.dk" }],
  async handler(input, ctx) {
    const check = validateAddress(input);
    if (!check.valid || !check.normalized) throw new Refused("invalid_address", check.problems.join(" "));
    const cart = await CartStore.open(ctx, true);
    await cart.setShipping({ name: input.name, ...check.normalized, email: input.email.toLowerCase(), phone: input.phone ?? null });
    return summarize(ctx.db, cart.state, ctx.now());
  },
});
