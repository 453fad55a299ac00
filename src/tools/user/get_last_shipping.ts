// user.get_last_shipping: the session customer's most recently used shipping address.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { sessionCustomerId } from "./own-customer.ts";

export default defineTool({
  name: "user.get_last_shipping",
  description:
    "The signed-in shopper's last shipping address (saved or from an order), to offer at checkout. Returns {name, " +
    "address, zip, city, country, phone, usedAt, source}.",
  errors: [
    { status: 422, code: "no_customer" },
    { status: 404, when: "none yet" },
  ],
  input: z.strictObject({}),
  output: z.strictObject({
    name: z.string(),
    address: z.string(),
    zip: z.string(),
    city: z.string(),
    country: z.string().describe("ISO 3166-1 alpha-2, e.g. DK."),
    phone: z.string().nullable(),
    usedAt: isoDateTime.describe("When this address was last used."),
    source: z.enum(["saved_address", "order"]).describe("Where it comes from: a saved address or the latest order."),
  }),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const customerId = sessionCustomerId(ctx.caller);
    const [saved, order] = await Promise.all([
      ctx.db.address.findFirst({ where: { customerId }, orderBy: [{ lastUsedAt: "desc" }, { id: "desc" }] }),
      ctx.db.order.findFirst({ where: { userId: customerId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    ]);
    if (saved && (!order || saved.lastUsedAt >= order.createdAt)) {
      const { name, address, zip, city, country, phone } = saved;
      return { name, address, zip, city, country, phone, usedAt: saved.lastUsedAt.toISOString(), source: "saved_address" as const };
    }
    if (!order) throw new NotFound("This customer has no shipping address yet.");
    return {
      name: order.shippingName,
      address: order.shippingAddress,
      zip: order.shippingZip,
      city: order.shippingCity,
      country: "DK",
      phone: order.phoneNumber,
      usedAt: order.createdAt.toISOString(),
      source: "order" as const,
    };
  },
});
