// discounts.update through real HTTP: value, expiry and limit changes, clearing with null, 422 rules, audit.
import { beforeAll, describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { DEMO_ORDERS } from "../../../prisma/seed/history.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:write"] } });
beforeAll(async () => {
  await server.prisma.discount.create({ data: { code: "BRUGT3", type: "fixed", value: 500n, usageLimit: 10n, usageCount: 3n } });
});

const row = (code: string) => server.prisma.discount.findUniqueOrThrow({ where: { code } });

describe("discounts.update", () => {
  it("changes value, expiry and limit and returns the discount", async () => {
    const result = expectOk(
      server,
      "discounts.update",
      await server.call("discounts.update", { code: "velkommen10", patch: { value: 20, validUntil: "2099-06-01T00:00:00Z", usageLimit: 500 } }, { key }),
    );
    expect(result).toMatchObject({ code: "VELKOMMEN10", type: "percent", value: 20, validUntil: "2099-06-01T00:00:00.000Z", usageLimit: 500, usageCount: DEMO_ORDERS.filter((order) => order.code === "VELKOMMEN10").length });
    expect(await row("VELKOMMEN10")).toMatchObject({ value: 20n, usageLimit: 500n });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "discounts.update", subjectType: "discount", before: { value: 10, usageLimit: null, validUntil: null }, after: { value: 20, usageLimit: 500 } });
  });

  it("clears expiry and limit with null and leaves omitted fields alone", async () => {
    const result = expectOk(server, "discounts.update", await server.call("discounts.update", { code: "VELKOMMEN10", patch: { validUntil: null, usageLimit: null } }, { key }));
    expect(result).toMatchObject({ value: 20, validUntil: null, usageLimit: null });
  });

  it("re-checks the percent bound against the stored type (422) but allows large fixed values", async () => {
    expectProblem(await server.call("discounts.update", { code: "VELKOMMEN10", patch: { value: 150 } }, { key }), 422, "percent_out_of_range");
    expect((await row("VELKOMMEN10")).value).toBe(20n);
    expectOk(server, "discounts.update", await server.call("discounts.update", { code: "SOMMER200", patch: { value: 150 } }, { key }));
  });

  it("refuses a usage limit below the uses so far (422), accepts one equal to it", async () => {
    expectProblem(await server.call("discounts.update", { code: "BRUGT3", patch: { usageLimit: 2 } }, { key }), 422, "usage_limit_below_count");
    expect((await row("BRUGT3")).usageLimit).toBe(10n);
    expect(expectOk(server, "discounts.update", await server.call("discounts.update", { code: "BRUGT3", patch: { usageLimit: 3 } }, { key }))).toMatchObject({ usageLimit: 3, usageCount: 3 });
  });

  it("refuses an expiry in the past (422)", async () => {
    expectProblem(await server.call("discounts.update", { code: "BRUGT3", patch: { validUntil: "2001-01-01T00:00:00Z" } }, { key }), 422, "valid_until_in_past");
  });

  it("answers 404 for an unknown code, writing nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("discounts.update", { code: "UKENDT", patch: { value: 5 } }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs discounts:write", async () => {
    await expectScopeMatrix(server, "discounts.update", { code: "SOMMER200", patch: { usageLimit: 300 } });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "discounts.update",
      key,
      [
        { code: "SOMMER200" },
        { code: "SOMMER200", patch: {} },
        { code: "SOMMER200", patch: { value: 0 } },
        { code: "SOMMER200", patch: { value: "10" } },
        { code: "SOMMER200", patch: { usageLimit: 0 } },
        { code: "SOMMER200", patch: { validUntil: "soon" } },
        { code: "SOMMER200", patch: { type: "percent" } },
        { code: "SOMMER200", patch: { code: "NYT" } },
        { patch: { value: 5 } },
      ],
      async () => [await row("SOMMER200"), await auditCount(server)],
    );
  });
});
