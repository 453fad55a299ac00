// cart.delivery_options through real HTTP: the methods of the shipping settings priced for the cart, parcel shops near a zip.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, expectRejectedInSession, newSession, plainProducts } from "../../support/session.ts";

type Option = { id: string; carrier: string; kind: string; name: string; priceDkk: number; minDays: number; maxDays: number; pickupPoints: Array<{ id: string; zip: string }> };

const { server } = useServer();
const THRESHOLD = DEFAULT_SETTINGS.shipping.freeShippingThresholdDkk;
const options = async (cookie: string, input: object = {}) => expectOk<Option[]>(server, "cart.delivery_options", await server.call("cart.delivery_options", input, { cookie }));

async function cartWorth(below: boolean): Promise<string> {
  const cookie = await newSession(server);
  const product = (await plainProducts(server)).find((p) => (below ? p.priceDkk < THRESHOLD : p.priceDkk >= THRESHOLD))!;
  expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product.slug }, { cookie }));
  return cookie;
}

describe("cart.delivery_options", () => {
  it("lists the demo methods with their prices (the home method at the flat rate) and estimates", async () => {
    const list = await options(await cartWorth(true));
    expect(list.map(({ id, carrier, kind, name, priceDkk, minDays, maxDays }) => [id, carrier, kind, name, priceDkk, minDays, maxDays])).toEqual([
      ["postnord-hjem", "PostNord", "home", "PostNord Hjemmelevering", 4900, 1, 3],
      ["postnord-pakkeshop", "PostNord", "pickup", "PostNord Pakkeshop", 3900, 1, 3],
      ["gls-pakkeshop", "GLS", "pickup", "GLS Pakkeshop", 3500, 1, 2],
    ]);
    expect(list[0]!.pickupPoints).toEqual([]);
    expect(list[1]!.pickupPoints.length).toBeGreaterThan(0);
    expect(list[2]!.pickupPoints.every((point) => point.id.startsWith("gls-"))).toBe(true);
  });

  it("makes every method free above the free-shipping threshold", async () => {
    expect((await options(await cartWorth(false))).map((option) => option.priceDkk)).toEqual([0, 0, 0]);
  });

  it("sorts parcel shops nearest the given zip, else the cart's address", async () => {
    const cookie = await cartWorth(true);
    expect((await options(cookie, { zip: "8000" }))[1]!.pickupPoints[0]).toMatchObject({ id: "pn-aarhus-foetex", zip: "8000" });
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", { ...ADDRESS, zip: "5000", city: "Odense C" }, { cookie }));
    expect((await options(cookie))[1]!.pickupPoints[0]).toMatchObject({ id: "pn-odense-rema" });
  });

  it("follows the owner's methods and flat rate", async () => {
    const key = await server.key("settings:write");
    const methods = [{ id: "dao-hjem", carrier: "DAO", kind: "home", name: "DAO Hjemmelevering", priceDkk: 2900, minDays: 2, maxDays: 2 }];
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { methods }, { key }));
    try {
      expect(await options(await cartWorth(true))).toEqual([{ ...methods[0], pickupPoints: [] }]);
    } finally {
      await server.call("settings.update_shipping", { methods: DEFAULT_SETTINGS.shipping.methods }, { key });
    }
  });

  it("answers list prices to an API-key-only caller (an empty cart)", async () => {
    const list = expectOk<Option[]>(server, "cart.delivery_options", await server.call("cart.delivery_options", {}, { key: await server.key("cart:write") }));
    expect(list.map((option) => option.priceDkk)).toEqual([4900, 3900, 3500]);
  });

  it("enforces its scope", async () => {
    await expectScopeMatrix(server, "cart.delivery_options", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "cart.delivery_options", await server.key("cart:write"), [{ zip: "800" }, { zip: 8000 }, { extra: 1 }]);
    await expectRejectedInSession(server, "cart.delivery_options", await newSession(server), [{ zip: "abcd" }]);
  });
});
