// discounts.get through real HTTP: one code in any letter case, 404 for an unknown one.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:read"] } });

describe("discounts.get", () => {
  it("returns the discount for a code in any case", async () => {
    const result = expectOk(server, "discounts.get", await server.call("discounts.get", { code: "sommer200" }, { key }));
    const row = await server.prisma.discount.findUniqueOrThrow({ where: { code: "SOMMER200" } });
    expect(result).toEqual({ id: row.id, code: "SOMMER200", type: "fixed", value: 20000, validUntil: null, usageLimit: 100, usageCount: 0, active: true });
  });

  it("answers 404 for an unknown code", async () => {
    expectProblem(await server.call("discounts.get", { code: "FINDESIKKE" }, { key }), 404, "not_found");
  });

  it("needs discounts:read", async () => {
    await expectScopeMatrix(server, "discounts.get", { code: "VELKOMMEN10" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "discounts.get", key, [{}, { code: "" }, { code: 10 }, { code: "X".repeat(65) }, { code: "VELKOMMEN10", extra: true }]);
  });
});
