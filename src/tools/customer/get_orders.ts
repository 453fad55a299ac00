// customer.get_orders: staff view of one customer's orders (by id or e-mail), newest first.
import { z } from "zod";
import { limit } from "../fields.ts";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { itemOrder, orderSummary, toOrderSummary } from "../orders/schemas.ts";

export default defineTool({
  name: "customer.get_orders",
  description:
    "Staff (shoppers: user.list_orders): a customer's orders by customerId or email, newest first, as orders.list.",
  errors: [
    { status: 403, when: "a storefront session" },
    { status: 404, when: "unknown customer" },
  ],
  input: z
    .strictObject({
      customerId: z.string().min(1).max(200).optional().describe("The customer's id."),
      email: z.email().max(320).optional().describe("Any case."),
      limit: limit(100, 20),
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
