// audit.get through real HTTP: one entry with its before and after snapshots; 404 for an unknown id.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO } from "../../../prisma/seed/history.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["audit:read"] } });
let entryId: string;
beforeAll(async () => {
  const writer = await server.key("discounts:write");
  expectOk(server, "discounts.update", await server.call("discounts.update", { code: "SOMMER200", patch: { value: 25000 } }, { key: writer, headers: { "x-request-id": "req-audit-get-1" } }));
  entryId = (await server.prisma.auditEntry.findFirstOrThrow({ where: { requestId: "req-audit-get-1" } })).id;
});

describe("audit.get", () => {
  it("returns the entry with its full before and after rows", async () => {
    const entry = expectOk<Record<string, unknown>>(server, "audit.get", await server.call("audit.get", { id: entryId }, { key }));
    const row = await server.prisma.discount.findUniqueOrThrow({ where: { code: "SOMMER200" } });
    expect(entry).toMatchObject({
      id: entryId,
      tool: "discounts.update",
      door: "rest",
      subjectType: "discount",
      subjectId: row.id,
      requestId: "req-audit-get-1",
      revertedAt: null,
      revertedBy: null,
      revertOfId: null,
      revertible: true,
      before: { id: row.id, code: "SOMMER200", value: 20000, usageLimit: 100, usageCount: 0, active: true, validUntil: null },
      after: { id: row.id, code: "SOMMER200", value: 25000 },
    });
    expect(Object.keys(entry.before as object).sort()).toEqual(["active", "code", "createdAt", "id", "type", "updatedAt", "usageCount", "usageLimit", "validUntil", "value"]);
  });

  it("shows the revert state after audit.revert", async () => {
    const reverter = await server.key("audit:revert");
    const reverted = expectOk<{ revertEntryId: string }>(server, "audit.revert", await server.call("audit.revert", { id: entryId }, { key: reverter }));
    const entry = expectOk(server, "audit.get", await server.call("audit.get", { id: entryId }, { key }));
    expect(entry).toMatchObject({ revertedAt: expect.any(String), revertedBy: expect.stringMatching(/^key:/), revertible: false });
    const own = expectOk(server, "audit.get", await server.call("audit.get", { id: reverted.revertEntryId }, { key }));
    expect(own).toMatchObject({ tool: "audit.revert", revertOfId: entryId, before: { value: 25000 }, after: { value: 20000 }, revertible: false });
  });

  it("returns the demo shop's entry (SOMMER200 raised from 150 to 200 kr.), revertible again once the later change was reverted", async () => {
    const entry = expectOk(server, "audit.get", await server.call("audit.get", { id: DEMO.auditEntry }, { key }));
    expect(entry).toMatchObject({ tool: "discounts.update", actor: "system:demo", before: { code: "SOMMER200", value: 15000 }, after: { code: "SOMMER200", value: 20000 }, revertible: true });
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await server.call("audit.get", { id: "cmaudit0000000000000000000" }, { key }), 404, "not_found");
  });

  it("needs audit:read", async () => {
    await expectScopeMatrix(server, "audit.get", { id: entryId });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "audit.get", key, [{}, { id: "" }, { id: 1 }, { id: "x".repeat(101) }, { id: entryId, full: true }]);
  });
});
