// orders.list_refund_tasks: the bank-transfer refunds staff still have to pay out by hand (or those paid out).
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { refundTaskOutput, toRefundTask } from "./refund-tasks.ts";

export default defineTool({
  name: "orders.list_refund_tasks",
  description:
    "Bank-transfer refunds to pay out by hand: open ones oldest first, done ones newest first. Returns [{taskId, " +
    "orderId, email, amountDkk, account, status, doneAt, …}].",
  input: z.strictObject({
    status: z.enum(["open", "done"]).default("open").describe("open: still to pay out; done: paid out."),
    limit: limit(100, 50),
  }),
  output: z.array(refundTaskOutput),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "done", limit: 10 }],
  async handler(input, ctx) {
    const tasks = await ctx.db.refundTask.findMany({
      where: { status: input.status },
      include: { order: { select: { email: true } } },
      orderBy: input.status === "open" ? [{ createdAt: "asc" }, { id: "asc" }] : [{ doneAt: "desc" }, { id: "desc" }],
      take: input.limit,
    });
    return tasks.map(toRefundTask);
  },
});
