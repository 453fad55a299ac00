// customer.lookup_by_email: staff find any customer by e-mail; a storefront session only its own.
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { customerOutput, visibleCustomer } from "./service.ts";

export default defineTool({
  name: "customer.lookup_by_email",
  description:
    "Find a customer by e-mail address (case-insensitive): id, e-mail, name, phone, createdAt, orderCount, totalSpentDkk " +
    "(øre) and lastOrderAt. Staff API keys find any customer; from a storefront session only the session's own customer is " +
    "ever returned, and any other address answers 404 exactly as an unknown one.",
  input: z.strictObject({ email: z.email().max(320).describe("The customer's e-mail address.") }),
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
