// discounts.delete through real HTTP: hard delete with confirm, audited with the full row; 404 for unknown codes.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:write"] } });

const db = () => server.prisma;

describe("discounts.delete", () => {
  it("deletes the code and audits the deleted row", async () => {
    const row = await db().discount.findUniqueOrThrow({ where: { code: "UDLOBET" } });
    expect(expectOk(server, "discounts.delete", await server.call("discounts.delete", { code: "udlobet", confirm: true }, { key }))).toEqual({ ok: true, code: "UDLOBET" });
    expect(await db().discount.findUnique({ where: { code: "UDLOBET" } })).toBeNull();
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "discounts.delete", subjectType: "discount", subjectId: row.id, after: null, before: { id: row.id, code: "UDLOBET", value: 25 } });
  });

  it("answers 404 for an unknown (or already deleted) code", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("discounts.delete", { code: "UDLOBET", confirm: true }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs discounts:write", async () => {
    await db().discount.create({ data: { code: "SLETMIG", type: "fixed", value: 100n } });
    await expectScopeMatrix(server, "discounts.delete", { code: "SLETMIG", confirm: true });
    expect(await db().discount.findUnique({ where: { code: "SLETMIG" } })).toBeNull();
  });

  it("rejects bad input and deletes nothing", async () => {
    await expectRejected(
      server,
      "discounts.delete",
      key,
      [{ code: "SOMMER200" }, { code: "SOMMER200", confirm: false }, { code: "SOMMER200", confirm: "true" }, { confirm: true }, { code: "SOMMER200", confirm: true, x: 1 }],
      async () => [await db().discount.count(), await auditCount(server)],
    );
  });
});
