// returns.approve through real HTTP: a requested return becomes approved with its 14-day refund deadline, the shopper is
// mailed the return instructions after commit, an exchange's variant is reserved; refusals write nothing.
import { describe, expect, it } from "vitest";
import { refundDeadline } from "../../../src/tools/returns/deadlines.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { openReturn, returnState, shippedOrder, type ReturnView } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["returns:write", "returns:read"] } });
const prisma = () => server.prisma;
const approve = (returnId: string) => server.call("returns.approve", { returnId }, { key });

describe("returns.approve", () => {
  it("approves, sets refundDueBy 14 days on and mails the shopper where to send the parcel", async () => {
    const mail = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 3 });
    const requested = await openReturn(server, key, order);
    const started = Date.now();
    const result = expectOk<ReturnView>(server, "returns.approve", await approve(requested.returnId));
    expect(result).toMatchObject({ returnId: requested.returnId, status: "approved", refundDkk: null });
    const due = Date.parse(result.refundDueBy!);
    expect(due).toBe(refundDeadline(new Date(started)).getTime());
    expect(due - started).toBeGreaterThan(14 * 86_400_000 - 86_400_000);
    expect(await lastAudit(server)).toMatchObject({ tool: "returns.approve", subjectType: "return", subjectId: requested.returnId, before: { status: "requested" }, after: { status: "approved" } });

    const reference = `R-${requested.returnId.slice(-8).toUpperCase()}`;
    await expect.poll(() => mail.sent.find((m) => m.to === order.email)?.subject ?? "").toContain(reference);
    const message = mail.sent.find((m) => m.to === order.email)!;
    expect(message.text).toContain("Strøget 12, 1160 København K");
    expect(message.text).toContain(`ordrenummeret #${order.number}`);
    expect(message.text).toContain("Pak varerne forsvarligt");
    expect(message.text).toContain("betaler du selv returfragten");
    expect(message.html).toContain(reference);
    expect(await prisma().emailMessage.findFirst({ where: { orderId: order.id, kind: "return_approved" } })).toMatchObject({ to: order.email, subject: message.subject });
  });

  it("reserves an exchange's units from the new variant's stock, and refuses when none are left (422 insufficient_stock)", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, variant: true, quantities: [1] });
    const line = order.items[0]!;
    const other = await prisma().productVariant.findFirstOrThrow({ where: { productId: line.productId, id: { not: line.variantId! } } });
    await prisma().productVariant.update({ where: { id: other.id }, data: { stock: 1n } });
    const first = await openReturn(server, key, order, { exchangeVariantId: other.id });
    expectOk(server, "returns.approve", await approve(first.returnId));
    expect((await prisma().productVariant.findUniqueOrThrow({ where: { id: other.id } })).stock).toBe(0n);

    const second = await shippedOrder(server, { deliveredDaysAgo: 1, variant: true, quantities: [1] });
    await prisma().orderItem.update({ where: { id: second.items[0]!.id }, data: { variantId: line.variantId, variantSku: line.variantSku } });
    await prisma().productVariant.update({ where: { id: other.id }, data: { stock: 1n } });
    const pending = await openReturn(server, key, second, { exchangeVariantId: other.id });
    await prisma().productVariant.update({ where: { id: other.id }, data: { stock: 0n } });
    const before = await returnState(server, second.id);
    expectProblem(await approve(pending.returnId), 422, "insufficient_stock");
    expect(await returnState(server, second.id)).toEqual(before);
  });

  it("refuses a return that is not requested (422 illegal_transition) and an unknown one (404), writing nothing", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    const approved = await openReturn(server, key, order, { approve: true });
    const before = await returnState(server, order.id);
    expectProblem(await approve(approved.returnId), 422, "illegal_transition");
    expectProblem(await approve("no-such-return"), 404, "not_found");
    expect(await returnState(server, order.id)).toEqual(before);
  });

  it("needs returns:write", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    await expectScopeMatrix(server, "returns.approve", { returnId: (await openReturn(server, key, order)).returnId });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    await expectRejected(server, "returns.approve", key, [{}, { returnId: "" }, { returnId: 7 }, { returnId: "x", refundDueBy: "2030-01-01" }]);
  });
});
