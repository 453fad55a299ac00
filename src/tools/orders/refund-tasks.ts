// The refund tasks' shape, as orders.list_refund_tasks and orders.complete_refund_task return them.
import { z } from "zod";
import type { RefundTask } from "../../generated/prisma/client.ts";
import { isoDateTime } from "../shared/timestamps.ts";

/** A bank-transfer refund staff pay out by hand, as the refund-task tools return it. */
export const refundTaskOutput = z.strictObject({
  taskId: z.string(),
  orderId: z.string(),
  email: z.string().describe("The order's e-mail, to ask for account details."),
  amountDkk: z.number().int().min(1).describe("To transfer, øre."),
  account: z.string().nullable().describe("Reg.nr. and account number the shopper gave, or null."),
  status: z.enum(["open", "done"]),
  createdAt: isoDateTime,
  doneAt: isoDateTime.nullable(),
  doneBy: z.string().nullable().describe("Who marked it paid out."),
});

export function toRefundTask(task: RefundTask & { order: { email: string } }): z.input<typeof refundTaskOutput> {
  return {
    taskId: task.id,
    orderId: task.orderId,
    email: task.order.email,
    amountDkk: Number(task.amountDkk),
    account: task.account,
    status: task.status === "done" ? "done" : "open",
    createdAt: task.createdAt.toISOString(),
    doneAt: task.doneAt?.toISOString() ?? null,
    doneBy: task.doneBy,
  };
}
