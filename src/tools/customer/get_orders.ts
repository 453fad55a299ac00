// customer.get_orders: staff view of one customer's orders (by id or e-mail), newest first.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { itemOrder, orderSummary, toOrderSummary } from "../orders/schemas.ts";

export default defineTool({
  name: "customer.get_orders",
  description:
    "Staff only: the orders of one customer, newest first, as order summaries (as orders.list). Identify the customer by " +
    "customerId or by email (exactly one). 404 if there is no such customer; a storefront session gets 403 (it uses " +
    "user.list_orders).",
  input: z
    .strictObject({
      customerId: z.string().min(1).max(200).optional().describe("The customer's id."),
      email: z.email().max(320).optional().describe("The customer's e-mail address (case-insensitive)."),
      limit: z.number().int().min(1).max(100).default(20).describe("Most orders to return, 1 to 100 (default 20)."),
    })
    .refine((v) => (v.customerId === undefined) !== (v.email === undefined), { message: "Give exactly one of customerId or email", path: ["customerId"] }),
  output: z.array(orderSummary),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  staffOnly: true,
  annotations: READ,
  examples: [{ email: "mette.hansen@example.dk" }],
  async handler({ customerId, email, limit }, ctx) {
    const customer = await ctx.db.customer.findFirst({
      where: customerId ? { id: customerId } : { email: { equals: email ?? "", mode: "insensitive" } },
      select: { id: true },
    });
    if (!customer) throw new NotFound(customerId ? `No customer with id "${customerId}".` : `No customer with the e-mail ${email}.`);
    const orders = await ctx.db.order.findMany({
      where: { userId: customer.id },
      include: { items: { orderBy: itemOrder } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    return orders.map(toOrderSummary);
  },
});
