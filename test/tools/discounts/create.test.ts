// discounts.create through real HTTP: uppercase storage, case-insensitive uniqueness, bounds, audit snapshot.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:write"] } });

const db = () => server.prisma;

describe("discounts.create", () => {
  it("creates a percent code stored uppercase and audits the full row", async () => {
    const result = expectOk<{ id: string; code: string }>(
      server,
      "discounts.create",
      await server.call("discounts.create", { code: "Host-15_a", type: "percent", value: 15, validUntil: "2099-12-31T23:59:59Z", usageLimit: 3 }, { key }),
    );
    expect(result.code).toBe("HOST-15_A");
    const row = await db().discount.findUniqueOrThrow({ where: { id: result.id } });
    expect(row).toMatchObject({ code: "HOST-15_A", type: "percent", value: 15n, usageLimit: 3n, usageCount: 0n, active: true });
    expect(row.validUntil?.toISOString()).toBe("2099-12-31T23:59:59.000Z");
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "discounts.create", subjectType: "discount", subjectId: row.id, before: null });
    expect(entry!.after).toMatchObject({ id: row.id, code: "HOST-15_A", value: 15, usageLimit: 3, validUntil: "2099-12-31T23:59:59.000Z" });
  });

  it("creates a fixed code in øre without limit or expiry", async () => {
    const result = expectOk<{ id: string; code: string }>(server, "discounts.create", await server.call("discounts.create", { code: "gave100", type: "fixed", value: 10000 }, { key }));
    expect(await db().discount.findUniqueOrThrow({ where: { id: result.id } })).toMatchObject({ code: "GAVE100", value: 10000n, usageLimit: null, validUntil: null });
  });

  it("answers 409 for a code that exists in any case, writing nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("discounts.create", { code: "velkommen10", type: "fixed", value: 100 }, { key }), 409, "conflict");
    expect(await auditCount(server)).toBe(before);
  });

  it("answers 422 for an expiry in the past", async () => {
    expectProblem(await server.call("discounts.create", { code: "GAMMEL", type: "fixed", value: 100, validUntil: "2020-01-01T00:00:00Z" }, { key }), 422, "valid_until_in_past");
    expect(await db().discount.findUnique({ where: { code: "GAMMEL" } })).toBeNull();
  });

  it("needs discounts:write", async () => {
    await expectScopeMatrix(server, "discounts.create", { code: "MATRIX1", type: "fixed", value: 100 });
  });

  it("rejects bad input and writes nothing", async () => {
    const count = () => db().discount.count();
    await expectRejected(
      server,
      "discounts.create",
      key,
      [
        {},
        { code: "AB", type: "percent", value: 10 },
        { code: "MED MELLEMRUM", type: "percent", value: 10 },
        { code: "X".repeat(65), type: "percent", value: 10 },
        { code: "GOD1", type: "percent", value: 101 },
        { code: "GOD1", type: "percent", value: 0 },
        { code: "GOD1", type: "fixed", value: -5 },
        { code: "GOD1", type: "fixed", value: 1.5 },
        { code: "GOD1", type: "fixed", value: 9007199254740992 },
        { code: "GOD1", type: "amount", value: 10 },
        { code: "GOD1", type: "fixed", value: 10, usageLimit: 0 },
        { code: "GOD1", type: "fixed", value: 10, validUntil: "tomorrow" },
        { code: "GOD1", type: "fixed", value: 10, extra: 1 },
      ],
      async () => [await count(), await auditCount(server)],
    );
  });
});
