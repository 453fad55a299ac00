// checkout.cancel through real HTTP: canceled once, refused after, no order, bad input.
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { openSession } from "./helpers.ts";

const { server, keys: { key } } = useServer({ config: { ucpTestMode: true }, keys: { key: ["checkout:agent"] } });

describe("checkout.cancel", () => {
  it("cancels an open session once; a second cancel, an update or a completion is refused", async () => {
    const { view } = await openSession(server, key);
    const canceled = expectOk<SessionView>(server, "checkout.cancel", await server.call("checkout.cancel", { id: view.id }, { key }));
    expect(canceled).toMatchObject({ id: view.id, status: "canceled", orderId: null, messages: [] });
    expect(await lastAudit(server)).toMatchObject({ tool: "checkout.cancel", subjectId: view.id });
    expect((await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: view.id } })).canceledAt).not.toBeNull();
    expectProblem(await server.call("checkout.cancel", { id: view.id }, { key }), 422, "checkout_not_modifiable");
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: { handlerId: "mock_payment_handler", token: "success_token" } }, { key }), 422, "checkout_not_modifiable");
  });

  it("refuses to cancel a completed session", async () => {
    const { view } = await openSession(server, key);
    expectOk(server, "checkout.complete", await server.call("checkout.complete", { id: view.id, payment: { handlerId: "payment_link" } }, { key }));
    expectProblem(await server.call("checkout.cancel", { id: view.id }, { key }), 422, "checkout_not_modifiable");
  });

  it("hides others' sessions and takes any caller short of 401/403", async () => {
    const { view } = await openSession(server, key);
    expectProblem(await server.call("checkout.cancel", { id: view.id }, { key: await server.key("checkout:agent") }), 404, "not_found");
    await expectScopeMatrix(server, "checkout.cancel", { id: view.id });
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "checkout.cancel", key, [{}, { id: null }, { id: "chk_x" }, { id: "chk_0000000000", reason: "x" }]);
  });
});
