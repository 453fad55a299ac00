// customer.list: staff list of customers with order count, total spent and last order, newest customer first.
import { z } from "zod";
import { limit, offset } from "../fields.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { customerOutput, customerRows } from "./customers.ts";

export default defineTool({
  name: "customer.list",
  description:
    "Staff: customers, newest first. Returns [{id, email, name, phone, createdAt, orderCount, totalSpentDkk, " +
    "lastOrderAt}].",
  errors: [{ status: 403, when: "a storefront session" }],
  input: z.strictObject({
    q: z.string().trim().min(1).max(100).optional().describe("Part of e-mail, name or phone."),
    limit: limit(100, 20),
    offset: offset(100000),
  }),
  output: z.array(customerOutput),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  staffOnly: true,
  annotations: READ,
  examples: [{}, { q: "example.dk", limit: 10 }],
  async handler({ q, limit, offset }, ctx) {
    const pattern = q ? `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
    const where = pattern
      ? Prisma.sql`(c.email ILIKE ${pattern} OR c.name ILIKE ${pattern} OR c.phone ILIKE ${pattern})`
      : Prisma.sql`TRUE`;
    return customerRows(ctx.db, where, limit, offset);
  },
});
