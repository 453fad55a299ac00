// customer.list_addresses: a customer's address book, default first.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { addressView, bookOwner, customerIdInput, listBook, toAddressView } from "./addresses.ts";

export default defineTool({
  name: "customer.list_addresses",
  description:
    "A customer's saved addresses, default first, then by last use. 422 no_customer (not signed in); 404 unknown " +
    "customerId. Returns [{id, name, address, zip, city, region, country, phone, isDefault}].",
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
