// discounts.list through real HTTP: the exact element shape, onlyActive, limit and ordering.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Discount = { id: string; code: string; type: string; value: number; validUntil: string | null; usageLimit: number | null; usageCount: number; active: boolean };

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:read"] } });
beforeAll(async () => {
  const db = server.prisma;
  await db.discount.create({ data: { code: "BRUGT", type: "fixed", value: 500n, usageLimit: 2n, usageCount: 2n } });
  await db.discount.create({ data: { code: "SLUKKET", type: "percent", value: 5n, active: false } });
});

const list = async (input: object) => expectOk<Discount[]>(server, "discounts.list", await server.call("discounts.list", input, { key }));

describe("discounts.list", () => {
  it("lists every code with exactly the documented fields, newest first", async () => {
    const all = await list({});
    expect(all.map((d) => d.code).sort()).toEqual(["BRUGT", "SLUKKET", "SOMMER200", "UDLOBET", "VELKOMMEN10"]);
    expect(Object.keys(all[0]!).sort()).toEqual(["active", "code", "id", "type", "usageCount", "usageLimit", "validUntil", "value"]);
    expect(all.slice(0, 2).map((d) => d.code).sort()).toEqual(["BRUGT", "SLUKKET"]);
    expect(all.find((d) => d.code === "SOMMER200")).toMatchObject({ type: "fixed", value: 20000, usageLimit: 100, usageCount: 0, active: true, validUntil: null });
    expect(all.find((d) => d.code === "UDLOBET")).toMatchObject({ type: "percent", value: 25, validUntil: "2024-01-01T00:00:00.000Z" });
  });

  it("onlyActive leaves out inactive, expired and used-up codes", async () => {
    expect((await list({ onlyActive: true })).map((d) => d.code).sort()).toEqual(["SOMMER200", "VELKOMMEN10"]);
    expect(await list({ onlyActive: false })).toHaveLength(5);
  });

  it("honours limit", async () => {
    expect(await list({ limit: 1 })).toHaveLength(1);
    expect(await list({ limit: 100 })).toHaveLength(5);
  });

  it("needs discounts:read", async () => {
    await expectScopeMatrix(server, "discounts.list", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "discounts.list", key, [{ limit: 0 }, { limit: 101 }, { limit: 2.5 }, { onlyActive: "yes" }, { extra: 1 }]);
  });
});
