// customer.lookup_by_email: staff find any customer by e-mail; a storefront session only its own.
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { customerOutput, visibleCustomer } from "./customers.ts";

export default defineTool({
  name: "customer.lookup_by_email",
  description: "A customer by e-mail; a session finds only its own. Returns the customer as customer.list.",
  errors: [{ status: 404, when: "no such customer, or another than the session's" }],
  input: z.strictObject({ email: z.email().max(320).describe("Customer e-mail.") }),
  output: customerOutput,
  scope: "customer:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ email: "mette.hansen@example.dk" }],
  async handler({ email }, ctx) {
    return visibleCustomer(ctx.db, ctx.caller, Prisma.sql`lower(c.email) = lower(${email})`, `No customer with the e-mail ${email}.`);
  },
});
