// discounts.list_status through real HTTP: active, or why not (inactive, expired, used up, unknown), by the rule
// discounts.try_apply applies, for codes in any letter case, in the order given.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { newSession, plainProducts } from "../../support/session.ts";

type Status = Array<{ code: string; status: string }>;

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:read"] } });
beforeAll(async () => {
  const prisma = server.prisma;
  await prisma.discount.createMany({
    data: [
      { code: "SLUKKET", type: "percent", value: 10n, active: false },
      { code: "UDLOEBET", type: "percent", value: 10n, validUntil: new Date(Date.now() - 60_000) },
      { code: "OPBRUGT", type: "fixed", value: 1000n, usageLimit: 2n, usageCount: 2n },
      { code: "SNART", type: "fixed", value: 1000n, validUntil: new Date(Date.now() + 3_600_000), usageLimit: 2n, usageCount: 1n },
    ],
  });
});

const status = async (codes: string[]) => expectOk<Status>(server, "discounts.list_status", await server.call("discounts.list_status", { codes }, { key }));

describe("discounts.list_status", () => {
  it("says which codes apply now and why the others do not, uppercase, in the order given, each code once", async () => {
    expect(await status(["snart", "Opbrugt", "UDLOEBET", "slukket", "velkommen10", "FINDESIKKE", "SNART"])).toEqual([
      { code: "SNART", status: "active" },
      { code: "OPBRUGT", status: "used_up" },
      { code: "UDLOEBET", status: "expired" },
      { code: "SLUKKET", status: "inactive" },
      { code: "VELKOMMEN10", status: "active" },
      { code: "FINDESIKKE", status: "unknown" },
    ]);
  });

  it("agrees with discounts.try_apply on every code", async () => {
    const cookie = await newSession(server);
    const [product] = await plainProducts(server);
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product!.slug }, { cookie }));
    for (const { code, status: state } of await status(["SNART", "OPBRUGT", "UDLOEBET", "SLUKKET", "FINDESIKKE"])) {
      const tried = (await server.call("discounts.try_apply", { code }, { cookie })).body.result as { applied: boolean; reason?: string };
      expect(tried.applied ? "active" : tried.reason, code).toBe(state);
    }
  });

  it("follows a change at once (switched off, then on)", async () => {
    const write = await server.key("discounts:write");
    expectOk(server, "discounts.toggle", await server.call("discounts.toggle", { code: "SOMMER200", active: false }, { key: write }));
    expect(await status(["SOMMER200"])).toEqual([{ code: "SOMMER200", status: "inactive" }]);
    expectOk(server, "discounts.toggle", await server.call("discounts.toggle", { code: "SOMMER200", active: true }, { key: write }));
    expect(await status(["SOMMER200"])).toEqual([{ code: "SOMMER200", status: "active" }]);
  });

  it("needs discounts:read", async () => {
    await expectScopeMatrix(server, "discounts.list_status", { codes: ["VELKOMMEN10"] });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "discounts.list_status", key, [
      {}, { codes: [] }, { codes: "VELKOMMEN10" }, { codes: [""] }, { codes: [10] }, { codes: ["X".repeat(65)] },
      { codes: Array.from({ length: 101 }, (_, i) => `CODE${i}`) }, { codes: ["VELKOMMEN10"], extra: true },
    ]);
  });
});
