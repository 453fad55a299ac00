// webhooks.enable through real HTTP: a disabled endpoint receives events again with its failure streak reset, audited;
// enabling an enabled one changes nothing; 404 for an unknown id.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["webhooks:write"] } });

describe("webhooks.enable", () => {
  it("turns a disabled endpoint back on, and enabling it again changes nothing", async () => {
    const enabled = expectOk(server, "webhooks.enable", await server.call("webhooks.enable", { id: "demo-webhook-erp" }, { key }));
    expect(enabled).toMatchObject({ id: "demo-webhook-erp", enabled: true, disabledAt: null, disabledReason: null, failureStreak: 0 });
    expect(await lastAudit(server)).toMatchObject({ tool: "webhooks.enable", subjectId: "demo-webhook-erp", before: { failureStreak: 5 }, after: { disabledAt: null } });
    const before = await auditCount(server);
    expect(expectOk(server, "webhooks.enable", await server.call("webhooks.enable", { id: "demo-webhook-erp" }, { key }))).toEqual(enabled);
    expect(await auditCount(server)).toBe(before);
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await server.call("webhooks.enable", { id: "no-such-endpoint" }, { key }), 404, "not_found");
  });

  it("needs webhooks:write", async () => {
    await expectScopeMatrix(server, "webhooks.enable", { id: "demo-webhook-old" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "webhooks.enable", key, [{}, { id: "" }, { id: 1 }, { id: "demo-webhook-erp", enabled: true }]);
  });
});
