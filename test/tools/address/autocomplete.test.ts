// address.autocomplete through real HTTP: postal-code suggestions for everyone, known addresses only for who may see them.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

type Suggestion = { address: string | null; zip: string; city: string; source: string };

const { server, keys: { catalogKey, staffKey } } = useServer({ keys: { catalogKey: ["catalog:read"], staffKey: ["catalog:read", "customer:read"] } });
let anna: { id: string };
beforeAll(async () => {
  anna = await createCustomer(server, { email: "anna@example.dk" });
  const bo = await createCustomer(server, { email: "bo@example.dk" });
  await server.prisma.address.create({ data: { customerId: anna.id, name: "Anna", address: "Klostergade 10", zip: "8000", city: "Aarhus C" } });
  await createOrder(server, { userId: anna.id, shippingAddress: "Klostergade 10" });
  await createOrder(server, { userId: bo.id, shippingAddress: "Klosterport 4" });
  await createOrder(server, { shippingAddress: "100% Vej 1" });
});

const suggest = async (input: object, auth: { key?: string; cookie?: string }) =>
  expectOk<Suggestion[]>(server, "address.autocomplete", await server.call("address.autocomplete", input, auth));

describe("address.autocomplete", () => {
  it("suggests postal codes by number prefix and by city prefix", async () => {
    const byZip = await suggest({ q: "800" }, { key: catalogKey });
    expect(byZip[0]).toEqual({ address: null, zip: "8000", city: "Aarhus C", source: "postal_code" });
    expect(byZip.every((s) => s.zip.startsWith("800") && s.source === "postal_code")).toBe(true);
    const byCity = await suggest({ q: "aarhus", limit: 20 }, { key: catalogKey });
    expect(byCity.map((s) => s.zip)).toEqual(expect.arrayContaining(["8000", "8200", "8210"]));
    expect(byCity.every((s) => s.city.startsWith("Aarhus"))).toBe(true);
    expect(await suggest({ q: "Zzzz" }, { key: catalogKey })).toEqual([]);
    expect(await suggest({ q: "26", limit: 3 }, { key: catalogKey })).toHaveLength(3);
  });

  it("adds known addresses first for staff with customer:read, deduplicated", async () => {
    const result = await suggest({ q: "kloster" }, { key: staffKey });
    expect(result.filter((s) => s.source === "known_address").map((s) => s.address).sort()).toEqual(["Klostergade 10", "Klosterport 4"]);
    expect(result[0]!.source).toBe("known_address");
    expect(result[0]).toMatchObject({ zip: "8000", city: "Aarhus C" });
  });

  it("takes LIKE wildcards in q literally", async () => {
    expect((await suggest({ q: "100%" }, { key: staffKey })).map((s) => s.address)).toEqual(["100% Vej 1"]);
    expect(await suggest({ q: "__" }, { key: staffKey })).toEqual([]);
  });

  it("shows a session only its own customer's known addresses, and a catalog-only key none", async () => {
    const own = await suggest({ q: "kloster" }, { cookie: await sessionFor(server, anna.id) });
    expect(own.map((s) => s.address)).toEqual(["Klostergade 10"]);
    expect(await suggest({ q: "kloster" }, { cookie: await sessionFor(server, null) })).toEqual([]);
    expect(await suggest({ q: "kloster" }, { key: catalogKey })).toEqual([]);
  });

  it("needs catalog:read", async () => {
    await expectScopeMatrix(server, "address.autocomplete", { q: "8000" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "address.autocomplete", catalogKey, [{}, { q: "a" }, { q: " a " }, { q: "x".repeat(101) }, { q: "aarhus", limit: 0 }, { q: "aarhus", limit: 21 }, { q: 8000 }, { q: "aarhus", source: "x" }]);
  });
});
