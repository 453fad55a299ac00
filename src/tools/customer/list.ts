// customer.list: staff list of customers with order count, total spent and last order, newest customer first.
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, READ } from "../tool.ts";
import { customerOutput, customerRows } from "./service.ts";

export default defineTool({
  name: "customer.list",
  description:
    "Staff only: list customers, newest first, each with orderCount, totalSpentDkk (øre, paid minus refunded) and " +
    "lastOrderAt. Optional q matches part of the e-mail, name or phone. Page with limit and offset. A storefront session " +
    "gets 403.",
  input: z.strictObject({
    q: z.string().trim().min(1).max(100).optional().describe("Part of the e-mail, name or phone (case-insensitive)."),
    limit: z.number().int().min(1).max(100).default(20).describe("Customers per page, 1 to 100 (default 20)."),
    offset: z.number().int().min(0).max(100000).default(0).describe("Customers to skip, 0 to 100000 (default 0)."),
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
