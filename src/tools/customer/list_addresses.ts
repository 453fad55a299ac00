// customer.list_addresses: a customer's address book, default first.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { addressView, bookOwner, customerIdInput, listBook, toAddressView } from "./addresses.ts";

export default defineTool({
  name: "customer.list_addresses",
  description:
    "A customer's saved addresses, default first, then by last use. Returns [{id, name, address, zip, city, region, " +
    "country, phone, isDefault}].",
  errors: [
    { status: 422, code: "no_customer", when: "the session is not signed in" },
    { status: 404, when: "unknown customerId" },
  ],
  input: z.strictObject({ customerId: customerIdInput }),
  output: z.array(addressView),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ customerId: "demo-customer-mette" }],
  async handler(input, ctx) {
    const owner = await bookOwner(ctx.db, ctx.caller, input.customerId);
    return (await listBook(ctx.db, owner)).map(toAddressView);
  },
});
