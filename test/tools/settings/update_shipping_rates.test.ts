// settings.update_shipping_rates through real HTTP: both lists replaced whole and audited (what checkout sessions read),
// promotions naming unknown products refused, and the validation of ids, countries, amounts and list sizes.
import { describe, expect, it } from "vitest";
import { getPromotions, getShippingRates } from "../../../src/tools/settings/commerce.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });

const db = () => server.prisma;
const stored = async () => [await getShippingRates(db()), await getPromotions(db())];
const update = async (input: object) => expectOk(server, "settings.update_shipping_rates", await server.call("settings.update_shipping_rates", input, { key }));

const rate = (id: string, country: string, serviceLevel = "standard", amount = 4900) => ({ id, country, serviceLevel, title: `${serviceLevel} ${country}`, amount });
const byTotal = { id: "free-499", type: "free_shipping", minSubtotal: 49900, productIds: null, description: "Fri fragt over 499 kr." };

describe("settings.update_shipping_rates", () => {
  it("stores both lists whole, audits each row, and empties them again", async () => {
    const product = await db().product.findFirstOrThrow({ where: { deletedAt: null } });
    const byProduct = { id: "free-one", type: "free_shipping", minSubtotal: null, productIds: [product.id], description: "" };
    const shippingRates = [rate("dk-std", "DK"), rate("world-std", "default", "standard", 14900), rate("dk-exp", "DK", "express", 9900)];
    const before = await auditCount(server);
    expect(await update({ shippingRates, promotions: [byTotal, byProduct] })).toEqual({ shippingRates, promotions: [byTotal, byProduct] });
    expect(await stored()).toEqual([shippingRates, [byTotal, byProduct]]);
    expect(await auditCount(server)).toBe(before + 2);
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_shipping_rates", subjectType: "setting", subjectId: "promotions" });

    expect(await update({ shippingRates: [rate("dk-std", "DK", "standard", 3900)], promotions: [] })).toEqual({ shippingRates: [rate("dk-std", "DK", "standard", 3900)], promotions: [] });
    expect(await update({ shippingRates: [], promotions: [] })).toEqual({ shippingRates: [], promotions: [] });
    expect(await stored()).toEqual([[], []]);
  });

  it("refuses a promotion naming an unknown or deleted product (422 unknown_product) and writes nothing", async () => {
    const deleted = await db().product.findFirstOrThrow({ where: { deletedAt: null } });
    await db().product.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    const snapshot = [await stored(), await auditCount(server)];
    for (const productIds of [["no-such-product"], [deleted.id]]) {
      const response = await server.call("settings.update_shipping_rates", { shippingRates: [rate("a", "DK")], promotions: [{ ...byTotal, minSubtotal: null, productIds }] }, { key });
      expectProblem(response, 422, "unknown_product");
      expect(response.body.detail).toContain(productIds[0]);
    }
    expect([await stored(), await auditCount(server)]).toEqual(snapshot);
    await db().product.update({ where: { id: deleted.id }, data: { deletedAt: null } });
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_shipping_rates", { shippingRates: [], promotions: [] });
  });

  it("rejects bad input and writes nothing", async () => {
    const many = Array.from({ length: 201 }, (_, i) => rate(`r${i}`, "default", `level-${i}`));
    await expectRejected(
      server,
      "settings.update_shipping_rates",
      key,
      [
        {},
        { shippingRates: [] },
        { promotions: [] },
        { shippingRates: [rate("a", "DK"), rate("a", "SE")], promotions: [] },
        { shippingRates: [rate("a", "DK"), rate("b", "DK")], promotions: [] },
        { shippingRates: [rate("a", "dk")], promotions: [] },
        { shippingRates: [rate("a", "DNK")], promotions: [] },
        { shippingRates: [rate("a", "DK", "standard", -1)], promotions: [] },
        { shippingRates: [rate("a", "DK", "standard", 49.5)], promotions: [] },
        { shippingRates: [rate("a", "DK", "standard", 9007199254740992)], promotions: [] },
        { shippingRates: [{ ...rate("a", "DK"), price: 10 }], promotions: [] },
        { shippingRates: [{ ...rate("a", "DK"), title: "" }], promotions: [] },
        { shippingRates: many, promotions: [] },
        { shippingRates: [], promotions: [byTotal, byTotal] },
        { shippingRates: [], promotions: [{ ...byTotal, minSubtotal: null }] },
        { shippingRates: [], promotions: [{ ...byTotal, minSubtotal: -5 }] },
        { shippingRates: [], promotions: [{ ...byTotal, type: "percent_off" }] },
        { shippingRates: [], promotions: Array.from({ length: 51 }, (_, i) => ({ ...byTotal, id: `p${i}` })) },
      ],
      async () => [await stored(), await auditCount(server)],
    );
  });
});
