// settings.get_commerce through real HTTP: the demo shop's defaults (DKK with VAT, no rates), then stored rows as written.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:read"] } });

const get = async () => expectOk(server, "settings.get_commerce", await server.call("settings.get_commerce", {}, { key }));

describe("settings.get_commerce", () => {
  it("reads a shop without commerce rows as DKK with VAT, full addresses and no rates", async () => {
    expect(await get()).toEqual({ currency: "DKK", pricesIncludeVat: true, checkoutNeeds: "full_address", agentAccess: "open", shippingRates: [], promotions: [] });
  });

  it("reads the stored rows; without pricesIncludeVat a currency other than DKK is without VAT", async () => {
    const rate = { id: "std", country: "default", serviceLevel: "standard", title: "Standard", amount: 500 };
    const promotion = { id: "p1", type: "free_shipping", minSubtotal: 5000, productIds: null, description: "Free over $50" };
    const setting = server.prisma.setting;
    await setting.create({ data: { section: "commerce", value: { currency: "USD", checkoutNeeds: "country" } } });
    await setting.create({ data: { section: "shipping_rates", value: [rate] } });
    await setting.create({ data: { section: "promotions", value: [promotion] } });
    expect(await get()).toEqual({ currency: "USD", pricesIncludeVat: false, checkoutNeeds: "country", agentAccess: "open", shippingRates: [rate], promotions: [promotion] });
    await setting.deleteMany({ where: { section: { in: ["commerce", "shipping_rates", "promotions"] } } });
  });

  it("needs settings:read", async () => {
    await expectScopeMatrix(server, "settings.get_commerce", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "settings.get_commerce", key, [{ currency: "DKK" }]);
  });
});
