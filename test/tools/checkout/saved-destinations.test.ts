// Saved addresses in checkout sessions through real HTTP: a signed-in shopper is offered their book, picks by id, and a
// new address is kept for next time (a known one reused); a caller that only names an e-mail gets none of that.
import { beforeAll, describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk, expectProblem } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts } from "../../support/session.ts";
import { createCustomer, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["checkout:agent"] } });
const prisma = () => server.prisma;
const EMAIL = "lise.berg@example.dk";

let customerId: string;
let cookie: string;
let home: string;
let line: { itemId: string; quantity: number };
beforeAll(async () => {
  customerId = (await createCustomer(server, { email: EMAIL, name: "Lise Berg" })).id;
  cookie = await sessionFor(server, customerId);
  home = (await prisma().address.create({ data: { customerId, name: "Lise Berg", address: "Vestergade 4", zip: "8000", city: "Aarhus C", isDefault: true } })).id;
  await prisma().address.create({ data: { customerId, name: "Lise Berg", address: "Storgatan 3", zip: "211 34", city: "Malmö", country: "SE" } });
  const [product] = await plainProducts(server, 2);
  line = { itemId: product!.id, quantity: 1 };
});
const call = (name: string, input: object, as: { cookie?: string; key?: string } = { cookie }) => server.call(name, input, as);
const session = async (name: string, input: object, as?: { cookie?: string; key?: string }) => expectOk<SessionView>(server, name, await call(name, input, as));

describe("checkout sessions and the buyer's saved addresses", () => {
  it("offers a signed-in shopper their book, default first, and ships to the one picked by id", async () => {
    const open = await session("checkout.create", { lines: [line], buyer: { email: EMAIL } });
    expect(open.fulfillment.destination).toBeNull();
    expect(open.fulfillment.saved.map((entry) => [entry.id, entry.street, entry.country])).toEqual([
      [home, "Vestergade 4", "DK"],
      [expect.any(String), "Storgatan 3", "SE"],
    ]);
    const picked = await session("checkout.update", { id: open.id, destinationId: home });
    expect(picked.status).toBe("ready_for_complete");
    expect(picked.fulfillment.destination).toEqual({ id: home, name: "Lise Berg", street: "Vestergade 4", postalCode: "8000", city: "Aarhus C", country: "DK" });
    expect(picked.fulfillment.saved).toHaveLength(2);
    expectProblem(await call("checkout.update", { id: open.id, destinationId: "addr_nowhere" }), 422, "destination_unknown");
  });

  it("keeps a new address in the book (Danish city as the register writes it) and reuses it next time", async () => {
    const before = await prisma().address.count({ where: { customerId } });
    const first = await session("checkout.create", { lines: [line], buyer: { email: EMAIL }, destination: { street: "Strøget 12", postalCode: "1160", city: "københavn k", country: "DK" } });
    const kept = await prisma().address.findMany({ where: { customerId }, orderBy: { createdAt: "desc" } });
    expect(kept).toHaveLength(before + 1);
    expect(kept[0]).toMatchObject({ id: first.fulfillment.destination!.id, address: "Strøget 12", zip: "1160", city: "København K", name: "Lise Berg", isDefault: false });
    // The caller gave an address of its own, so the book is not offered beside it.
    expect(first.fulfillment.saved).toEqual([]);
    const again = await session("checkout.create", { lines: [line], destination: { street: "strøget 12", postalCode: "1160", city: "København K", country: "DK" } });
    expect(again.fulfillment.destination!.id).toBe(first.fulfillment.destination!.id);
    expect(await prisma().address.count({ where: { customerId } })).toBe(before + 1);
  });

  it("keeps neither an invalid Danish address nor one the caller named by its own id", async () => {
    const before = await prisma().address.count({ where: { customerId } });
    const wrong = await session("checkout.create", { lines: [line], destination: { street: "Strøget 12", postalCode: "1160", city: "Aarhus", country: "DK" } });
    expect(wrong.fulfillment.destination!.id).toBe("dest_1");
    const named = await session("checkout.create", { lines: [line], destination: { id: "agent_home", street: "Nørregade 1", postalCode: "1165", city: "København K", country: "DK" } });
    expect(named.fulfillment.destination!.id).toBe("agent_home");
    expect(await prisma().address.count({ where: { customerId } })).toBe(before);
    // Naming the current destination's id keeps it.
    expect((await session("checkout.update", { id: named.id, destinationId: "agent_home" })).fulfillment.destination!.id).toBe("agent_home");
  });

  it("gives a caller that only names the buyer's e-mail no addresses, and keeps none for it", async () => {
    const before = await prisma().address.count({ where: { customerId } });
    const open = await session("checkout.create", { lines: [line], buyer: { email: EMAIL } }, { key });
    expect(open.fulfillment.saved).toEqual([]);
    expectProblem(await call("checkout.update", { id: open.id, destinationId: home }, { key }), 422, "destination_unknown");
    const given = await session("checkout.update", { id: open.id, destination: { street: "Kongensgade 1", postalCode: "5000", city: "Odense C", country: "DK" } }, { key });
    expect(given.fulfillment.destination!.id).toBe("dest_1");
    expect(await prisma().address.count({ where: { customerId } })).toBe(before);
  });

  it("refuses destination and destinationId together (400), writing nothing", async () => {
    const count = await prisma().checkoutSession.count();
    expectProblem(await call("checkout.create", { lines: [line], destinationId: home, destination: { country: "DK" } }), 400, "invalid_input");
    expect(await prisma().checkoutSession.count()).toBe(count);
  });
});
