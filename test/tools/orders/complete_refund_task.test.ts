// orders.complete_refund_task through real HTTP: marked paid out once (audited, the ledger untouched), a second time and
// two at once refused, 404, scopes and bad input writing nothing.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["orders:read", "orders:write"] } });
const prisma = () => server.prisma;
type Task = { taskId: string; orderId: string; amountDkk: number; status: string; doneAt: string | null; doneBy: string | null };

/** A paid bank-transfer order cancelled: its refund waits as an open task. */
async function openTask(): Promise<string> {
  const order = await createOrder(server, { status: "paid" });
  expectOk(server, "orders.cancel", await server.call("orders.cancel", { orderId: order.id, reason: "Udsolgt" }, { key: staff }));
  return (await prisma().refundTask.findFirstOrThrow({ where: { orderId: order.id } })).id;
}
const complete = (taskId: string, note?: string) => server.call("orders.complete_refund_task", { taskId, ...(note ? { note } : {}) }, { key: staff });

describe("orders.complete_refund_task", () => {
  it("marks the demo refund paid out, audited with the note, and leaves the ledger as it was", async () => {
    const ledger = await prisma().paymentEntry.count({ where: { orderId: "demo-order-05" } });
    const done = expectOk<Task>(server, "orders.complete_refund_task", await complete("demo-refund-task", "Overført 27/11"));
    expect(done).toMatchObject({ taskId: "demo-refund-task", orderId: "demo-order-05", status: "done", doneAt: expect.stringMatching(/Z$/), doneBy: expect.stringMatching(/^key:/) });
    expect(await prisma().paymentEntry.count({ where: { orderId: "demo-order-05" } })).toBe(ledger);
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.complete_refund_task", subjectType: "refund_task", subjectId: "demo-refund-task", note: "Overført 27/11" });
    expect(audit!.before).toMatchObject({ status: "open", doneAt: null });
    expect(audit!.after).toMatchObject({ status: "done" });
  });

  it("refuses a task already paid out, also when two mark it at once, and an unknown one", async () => {
    const taskId = await openTask();
    const answers = await Promise.all([complete(taskId), complete(taskId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expectProblem(answers.find((a) => a.status === 422)!, 422, "refund_task_done");
    const audits = await prisma().auditEntry.count({ where: { tool: "orders.complete_refund_task", subjectId: taskId } });
    expect(audits).toBe(1);
    expectProblem(await complete(taskId), 422, "refund_task_done");
    expectProblem(await complete("no-such-task"), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const taskId = await openTask();
    await expectScopeMatrix(server, "orders.complete_refund_task", { taskId });
    expectProblem(await server.call("orders.complete_refund_task", { taskId }, { key: await server.key("orders:read") }), 403, "forbidden");
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const taskId = await openTask();
    const state = async () => [await prisma().refundTask.findUniqueOrThrow({ where: { id: taskId } }), await prisma().auditEntry.count()];
    await expectRejected(server, "orders.complete_refund_task", staff, [{}, { taskId: "" }, { taskId: 5 }, { taskId: "x".repeat(101) }, { taskId, note: "" }, { taskId, note: "x".repeat(501) }, { taskId, extra: true }], state);
  });
});
