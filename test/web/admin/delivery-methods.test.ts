// Indstillinger → Leveringsmåder and Pakkeshops over real HTTP: a form per delivery method (and one for a new method)
// saves through settings.update_shipping and settings.update_sale_terms; "Gør til standard" and "Slet"; the parcel shop
// lines keep the ids of unchanged shops; mistakes come back as Danish messages and change nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer.fragt@nordlys.dk");
});

type Shipping = typeof DEFAULT_SETTINGS.shipping;
const stored = async (section: string) => (await server.runtime.database.prisma.setting.findUnique({ where: { section } }))?.value;
const shipping = async () => (await stored("shipping")) as Shipping;

async function post(action: string, form: Record<string, string>, anchor: string): Promise<string> {
  const page = await owner.submit("/admin/settings", `/admin/settings/${action}`, form);
  expect(page.status).toBe(303);
  expect(page.location).toBe(`/admin/settings#${anchor}`);
  const next = await owner.get(page.location!);
  return (/<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(next.html)?.[1] ?? "").replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

const GLS = { original: "gls-pakkeshop", name: "GLS Pakkeshop", carrier: "GLS", kind: "pickup", price: "35", freeFrom: "", minDays: "1", maxDays: "2" };

describe("the delivery method forms", () => {
  it("show a form per method with its fields, one for a new method, and the parcel shops one per line", async () => {
    const { html } = await owner.get("/admin/settings");
    for (const method of DEFAULT_SETTINGS.shipping.methods) expect(html).toContain(`id="method-${method.id}"`);
    expect(html).toContain('id="method-new"');
    expect(html).toContain("Tilføj leveringsmåde");
    expect(html).toMatch(/id="m2-price" name="price" type="text" value="35"/);
    expect(html).toContain("Fri fragt fra kr.");
    expect(html).toContain("PostNord | Netto Nansensgade | Nansensgade 19 | 1366 København K");
  });

  it("save a method's name, price, own free-shipping threshold and estimate", async () => {
    expect(await post("method", { ...GLS, name: "GLS Pakkeshop Express", price: "29,50", freeFrom: "299", minDays: "1", maxDays: "1" }, "methods")).toBe("GLS Pakkeshop Express er gemt.");
    const methods = (await shipping()).methods;
    expect(methods.find((method) => method.id === "gls-pakkeshop")).toEqual({ id: "gls-pakkeshop", carrier: "GLS", kind: "pickup", name: "GLS Pakkeshop Express", priceDkk: 2950, minDays: 1, maxDays: 1 });
    expect(await stored("delivery_free_from")).toEqual({ "gls-pakkeshop": 29900 });
    expect(await post("method", { ...GLS, price: "", freeFrom: "" }, "methods")).toBe("GLS Pakkeshop er gemt.");
    expect((await shipping()).methods.find((method) => method.id === "gls-pakkeshop")).not.toHaveProperty("priceDkk");
    expect(await stored("delivery_free_from")).toEqual({});
  });

  it("add a new method at the end with an id from carrier and name, make it the default, and delete it", async () => {
    expect(await post("method", { original: "", name: "Hjem om aftenen", carrier: "Dao", kind: "home", price: "59", freeFrom: "", minDays: "1", maxDays: "2" }, "methods")).toBe("Hjem om aftenen er tilføjet.");
    expect((await shipping()).methods.at(-1)).toEqual({ id: "dao-hjem-om-aftenen", carrier: "Dao", kind: "home", name: "Hjem om aftenen", priceDkk: 5900, minDays: 1, maxDays: 2 });
    expect(await post("method-first", { id: "dao-hjem-om-aftenen" }, "methods")).toBe("Hjem om aftenen er nu standard.");
    expect((await shipping()).methods[0]!.id).toBe("dao-hjem-om-aftenen");
    expect(await post("method-delete", { id: "dao-hjem-om-aftenen" }, "methods")).toBe("Hjem om aftenen er slettet.");
    expect((await shipping()).methods.map((method) => method.id)).toEqual(DEFAULT_SETTINGS.shipping.methods.map((method) => method.id));
  });

  it("answer mistakes in Danish and change nothing", async () => {
    const before = [await shipping(), await stored("delivery_free_from")];
    const cases: Array<[Record<string, string>, string]> = [
      [{ minDays: "3", maxDays: "1" }, "Levering senest: skal være mindst lige så mange dage som tidligst"],
      [{ price: "gratis" }, "Skriv et beløb i kroner"],
      [{ freeFrom: "3 kroner" }, "Skriv et beløb i kroner"],
      [{ name: "" }, "Navn: skal udfyldes"],
      [{ minDays: "en" }, "Skriv et helt tal"],
    ];
    for (const [change, message] of cases) expect(await post("method", { ...GLS, ...change }, "methods")).toContain(message);
    expect([await shipping(), await stored("delivery_free_from")]).toEqual(before);
  });
});

describe("the parcel shop list", () => {
  it("keeps the ids of unchanged shops, gives new ones an id, and saves the list whole", async () => {
    const lines = [
      "PostNord | Netto Nansensgade | Nansensgade 19 | 1366 København K",
      "GLS | Spar Trøjborg | Tordenskjoldsgade 22 | 8200 Aarhus N",
      "GLS | Kvickly Ørestad | Arne Jacobsens Allé 12 | 2300 København S",
    ].join("\n");
    expect(await post("pickup-points", { pickupPoints: lines }, "pickup-points")).toBe("Pakkeshops er gemt (3).");
    expect((await shipping()).pickupPoints).toEqual([
      { id: "pn-kbh-netto-nansensgade", carrier: "PostNord", name: "Netto Nansensgade", address: "Nansensgade 19", zip: "1366", city: "København K" },
      { id: "gls-aarhus-spar", carrier: "GLS", name: "Spar Trøjborg", address: "Tordenskjoldsgade 22", zip: "8200", city: "Aarhus N" },
      { id: "gls-kvickly-oerestad-2300", carrier: "GLS", name: "Kvickly Ørestad", address: "Arne Jacobsens Allé 12", zip: "2300", city: "København S" },
    ]);
  });

  it("refuses a line it cannot read, in Danish", async () => {
    const before = await shipping();
    expect(await post("pickup-points", { pickupPoints: "GLS | Spar | Vej 1" }, "pickup-points")).toContain('Linje 1 skal have formen "Fragtfirma | Navn | Adresse | Postnr. By"');
    expect(await post("pickup-points", { pickupPoints: "GLS | Spar | Vej 1 | Aarhus" }, "pickup-points")).toContain("Linje 1: skriv postnummer (4 cifre) og by");
    expect(await shipping()).toEqual(before);
  });
});
