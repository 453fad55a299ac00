// orders.complete_refund_task: staff have transferred a refund by hand; the task leaves the open list. The refund itself
// was booked in the ledger when the task was opened.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { refundTaskOutput, toRefundTask } from "./refund-tasks.ts";

export default defineTool({
  name: "orders.complete_refund_task",
  description: "Mark a bank-transfer refund task paid out. Returns the task.",
  errors: [{ status: 422, code: "refund_task_done" }],
  input: z.strictObject({
    taskId: z.string().min(1).max(100).describe("From orders.list_refund_tasks."),
    note: z.string().trim().min(1).max(500).optional().describe("Transfer date or reference."),
  }),
  output: refundTaskOutput,
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ taskId: "demo-refund-task", note: "Overført 27/11" }],
  async handler(input, ctx) {
    const before = await ctx.db.refundTask.findUnique({ where: { id: input.taskId } });
    if (!before) throw new NotFound(`No refund task with id "${input.taskId}".`);
    // Conditional on still being open: two people marking it at once record it once.
    const marked = await ctx.db.refundTask.updateMany({ where: { id: before.id, status: "open" }, data: { status: "done", doneAt: ctx.now(), doneBy: ctx.caller.actor } });
    if (marked.count === 0) throw new Refused("refund_task_done", `The refund of order ${before.orderId} was already marked paid out.`);
    const after = await ctx.db.refundTask.findUniqueOrThrow({ where: { id: before.id }, include: { order: { select: { email: true } } } });
    const { order: _order, ...row } = after;
    await ctx.audit({ subjectType: "refund_task", subjectId: after.id, before, after: row, ...(input.note ? { note: input.note } : {}) });
    return toRefundTask(after);
  },
});
