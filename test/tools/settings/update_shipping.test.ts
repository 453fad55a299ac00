// settings.update_shipping through real HTTP: amounts in øre, the carrier list replaced whole, audited Setting row.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { getSection } from "../../../src/tools/settings/settings-document.ts";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });

const stored = async () => (await server.prisma.setting.findUniqueOrThrow({ where: { section: "shipping" } })).value;
const update = async (input: object) => expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", input, { key }));

describe("settings.update_shipping", () => {
  it("changes the amounts and keeps the carriers", async () => {
    expect(await update({ flatRateDkk: 3900, freeShippingThresholdDkk: 0 })).toEqual({ ...DEFAULT_SETTINGS.shipping, flatRateDkk: 3900, freeShippingThresholdDkk: 0 });
    expect(await getSection(server.prisma, "shipping")).toMatchObject({ flatRateDkk: 3900, freeShippingThresholdDkk: 0 });
    expect(await lastAudit(server)).toMatchObject({ subjectType: "setting", subjectId: "shipping", before: { value: { flatRateDkk: 4900 } }, after: { value: { flatRateDkk: 3900 } } });
  });

  it("replaces the whole carrier list", async () => {
    const carriers = [{ name: "DAO", minDays: 2, maxDays: 4 }];
    expect(await update({ carriers })).toMatchObject({ carriers, flatRateDkk: 3900 });
    expect(await stored()).toMatchObject({ carriers });
    expect(await update({ carriers: [] })).toMatchObject({ carriers: [] });
  });

  it("replaces the delivery methods and parcel shops", async () => {
    const methods = [
      { id: "dao-pakkeshop", carrier: "DAO", kind: "pickup", name: "DAO Pakkeshop", priceDkk: 3000, minDays: 2, maxDays: 4 },
      { id: "dao-hjem", carrier: "DAO", kind: "home", name: "DAO Hjemmelevering", minDays: 1, maxDays: 2 },
    ];
    const pickupPoints = [{ id: "dao-vejle", carrier: "DAO", name: "Kiosken Vejle", address: "Torvegade 1", zip: "7100", city: "Vejle" }];
    expect(await update({ methods, pickupPoints })).toMatchObject({ methods, pickupPoints });
    expect(await stored()).toMatchObject({ methods, pickupPoints });
    expect(await update({ methods: [], pickupPoints: [] })).toMatchObject({ methods: [], pickupPoints: [] });
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_shipping", { flatRateDkk: 4500 });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "settings.update_shipping",
      key,
      [
        {},
        { flatRateDkk: -1 },
        { flatRateDkk: 49.5 },
        { freeShippingThresholdDkk: 9007199254740992 },
        { flatRateDkk: "49" },
        { carriers: [{ name: "GLS", minDays: 3, maxDays: 1 }] },
        { carriers: [{ name: "", minDays: 1, maxDays: 2 }] },
        { carriers: [{ name: "GLS", minDays: -1, maxDays: 2 }] },
        { carriers: [{ name: "GLS", minDays: 1, maxDays: 2, price: 10 }] },
        { carriers: "GLS" },
        { methods: [{ id: "x-hjem", carrier: "X", kind: "drone", name: "Drone", minDays: 1, maxDays: 1 }] },
        { methods: [{ id: "X Hjem", carrier: "X", kind: "home", name: "Hjem", minDays: 1, maxDays: 1 }] },
        { methods: [{ id: "x-hjem", carrier: "X", kind: "home", name: "Hjem", minDays: 3, maxDays: 1 }] },
        { methods: [{ id: "x-hjem", carrier: "X", kind: "home", name: "Hjem", priceDkk: -1, minDays: 1, maxDays: 1 }] },
        { pickupPoints: [{ id: "x-1", carrier: "X", name: "Kiosk", address: "Vej 1", zip: "123", city: "By" }] },
        { currency: "EUR" },
      ],
      async () => [await stored(), await auditCount(server)],
    );
  });
});
