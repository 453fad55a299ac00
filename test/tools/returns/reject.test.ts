// returns.reject through real HTTP: a requested return is refused with a reason the shopper is mailed; nothing else can be.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { openReturn, returnState, shippedOrder, type ReturnView } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read"] } });
const reject = (returnId: string, reason = "Skaden skyldes et slag, ikke en fejl ved varen.") => server.call("returns.reject", { returnId, reason }, { key });

describe("returns.reject", () => {
  it("rejects with the reason, audited, and mails it to the shopper", async () => {
    const mail = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 30 });
    const requested = await openReturn(server, key, order, { kind: "complaint" });
    const result = expectOk<ReturnView>(server, "returns.reject", await reject(requested.returnId));
    expect(result).toMatchObject({ returnId: requested.returnId, status: "rejected", rejectReason: "Skaden skyldes et slag, ikke en fejl ved varen.", refundDueBy: null });
    expect(await lastAudit(server)).toMatchObject({ tool: "returns.reject", subjectId: requested.returnId, before: { status: "requested" }, after: { status: "rejected" } });
    await expect.poll(() => mail.sent.find((m) => m.to === order.email)?.text ?? "").toContain("Begrundelse: Skaden skyldes et slag");
    expect(await server.prisma.emailMessage.count({ where: { orderId: order.id, kind: "return_rejected" } })).toBe(1);
  });

  it("refuses an approved or rejected return (422 illegal_transition) and an unknown one (404), writing nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [1, 1] });
    const approved = await openReturn(server, key, order, { quantities: [1, 0], approve: true });
    const rejected = await openReturn(server, key, order, { quantities: [0, 1] });
    expectOk(server, "returns.reject", await reject(rejected.returnId));
    const before = await returnState(server, order.id);
    expectProblem(await reject(approved.returnId), 422, "illegal_transition");
    expectProblem(await reject(rejected.returnId), 422, "illegal_transition");
    expectProblem(await reject("no-such-return"), 404, "not_found");
    expect(await returnState(server, order.id)).toEqual(before);
  });

  it("needs returns:write", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    await expectScopeMatrix(server, "returns.reject", { returnId: (await openReturn(server, key, order)).returnId, reason: "Nej" });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    const { returnId } = await openReturn(server, key, order);
    await expectRejected(server, "returns.reject", key, [{ returnId }, { returnId, reason: " " }, { returnId, reason: "x".repeat(1001) }, { reason: "Nej" }, { returnId, reason: "Nej", notify: false }], () => returnState(server, order.id));
  });
});
