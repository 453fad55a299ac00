// orders.change_address: send an order somewhere else, as long as it has not left the warehouse.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { checkedAddress } from "./place.ts";
import { orderId } from "./schemas.ts";
import { assertUnshipped, lockOrder, orderRow } from "./order-writes.ts";

export default defineTool({
  name: "orders.change_address",
  description: "Change an unshipped order's shipping address (Danish ones checked). Returns {id, status, shipping*}.",
  errors: [
    { status: 422, code: "already_shipped" },
    { status: 422, code: "invalid_address" },
  ],
  input: z.strictObject({
    orderId,
    name: z.string().trim().min(2).max(200).describe("Recipient."),
    address: z.string().trim().min(2).max(200).describe("Street and number."),
    zip: z.string().trim().regex(/^[A-Za-z0-9 -]{2,12}$/, "2 to 12 letters, digits, spaces or hyphens").describe("Postal code; 4 digits in Denmark."),
    city: z.string().trim().min(1).max(100).describe("City; in Denmark the postal code's."),
    country: z.string().regex(/^[A-Z]{2}$/, "ISO 3166-1 alpha-2, e.g. DK").optional().describe("Default: the order's country."),
    region: z.string().trim().min(1).max(100).optional().describe("State/province."),
  }),
  output: z.strictObject({
    id: z.string(),
    status: z.string(),
    shippingName: z.string(),
    shippingAddress: z.string(),
    shippingZip: z.string(),
    shippingCity: z.string(),
    shippingCountry: z.string(),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  shopper: { order: (input) => input.orderId },
  annotations: UPDATE,
  examples: [{ orderId: "demo-order-16", name: "Jonas Nielsen", address: "Vestergade 10", zip: "5000", city: "Odense C" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    assertUnshipped(order, "an address");
    const country = input.country ?? order.shippingCountry;
    // A region belongs to its country: moving the order to another country drops the old one unless a new one is given.
    const region = input.region ?? (country === order.shippingCountry ? order.shippingRegion : null);
    const place = country === "DK" ? checkedAddress("Shipping address", input) : { address: input.address, zip: input.zip, city: input.city };
    const after = await ctx.db.order.update({
      where: { id: order.id },
      data: { shippingName: input.name, shippingAddress: place.address, shippingZip: place.zip, shippingCity: place.city, shippingCountry: country, shippingRegion: region },
    });
    await ctx.audit({ subjectType: "order", subjectId: order.id, before: orderRow(order), after });
    return { id: after.id, status: after.status, shippingName: after.shippingName, shippingAddress: after.shippingAddress, shippingZip: after.shippingZip, shippingCity: after.shippingCity, shippingCountry: after.shippingCountry };
  },
});
