// Parcel shops beside shipping rates, through real HTTP at UCP 2026-08-25: a shop that prices home delivery by rate
// (settings.update_shipping_rates) still offers its PostNord and GLS parcel shops, each priced as the storefront prices
// its method, whatever the buyer's country; an order to a parcel shop records the method and costs its price.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutResponse } from "../../src/api/ucp/v2026-08-25.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, type ProfileServer } from "../support/ucp-profile.ts";

let profiles: ProfileServer;
beforeAll(async () => {
  profiles = await serveProfiles({ "/agent.json": { name: "Rates agent", ucp: { version: "2026-08-25" } } });
});
afterAll(async () => {
  await profiles.close();
});
const { server } = useServer({ config: () => ({ ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" }) });
const ucp = (method: string, path: string, body?: unknown): Promise<Reply> =>
  sendJson(`${server.url}${path}`, method, { "UCP-Agent": `profile="${profiles.base}/agent.json"`, "Content-Type": "application/json" }, body);

const RATES = [
  { id: "dk-standard", country: "DK", serviceLevel: "standard", title: "PostNord hjem", amount: 5900 },
  { id: "dk-express", country: "DK", serviceLevel: "express", title: "Express hjem", amount: 9900 },
  { id: "world-standard", country: "default", serviceLevel: "standard", title: "International", amount: 14900 },
];
const BUYER = { email: "rater@example.dk", first_name: "Rasmus", last_name: "Rate" };
const address = (country: string) => ({ methods: [{ type: "shipping", destinations: [{ id: "d1", street_address: "Main Street 1", postal_code: country === "DK" ? "8000" : "10115", address_locality: country === "DK" ? "Aarhus C" : "Berlin", address_country: country }], selected_destination_id: "d1" }] });
const ids = (session: ReturnType<typeof checkoutResponse.parse>, index: number) => session.fulfillment!.methods[index]?.groups[0]!.options.map((option) => option.id) ?? [];

describe("parcel shops beside shipping rates (2026-08-25)", () => {
  it("offers rates for home and the parcel shops at their methods' prices; a parcel shop needs no address and is ordered", async () => {
    const key = await server.key("settings:write");
    expect((await server.call("settings.update_shipping_rates", { shippingRates: RATES, promotions: [] }, { key })).status).toBe(200);
    const [product] = await plainProducts(server, 1);
    const lines = [{ item: { id: product!.id }, quantity: 1 }];

    // No address yet: the parcel shops are on offer already, home delivery waits for a country.
    const session = valid(checkoutResponse, await ucp("POST", "/ucp/checkout-sessions", { line_items: lines, buyer: BUYER }));
    expect(ids(session, 0)).toEqual([]);
    expect(ids(session, 1)).toEqual(["pickup_postnord-pakkeshop", "pickup_gls-pakkeshop"]);

    // A Danish address: the country's rates, cheapest first, beside the parcel shops; abroad, the default rate beside them.
    const home = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: lines, buyer: BUYER, fulfillment: address("DK") }));
    expect(ids(home, 0)).toEqual(["dk-standard", "dk-express"]);
    expect(ids(home, 1)).toEqual(["pickup_postnord-pakkeshop", "pickup_gls-pakkeshop"]);
    expect(home.status).toBe("incomplete");
    const abroad = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: lines, buyer: BUYER, fulfillment: address("DE") }));
    expect(ids(abroad, 0)).toEqual(["world-standard"]);
    expect(ids(abroad, 1)).toEqual(["pickup_postnord-pakkeshop", "pickup_gls-pakkeshop"]);

    // A parcel shop alone: ready, shipping at the pickup method's price (the storefront's), then ordered there.
    const parcel = valid(checkoutResponse, await ucp("PUT", `/ucp/checkout-sessions/${session.id}`, { line_items: lines, buyer: BUYER, fulfillment: { methods: [{ type: "pickup", selected_destination_id: "gls-kbh-shell-amager" }] } }));
    expect(parcel.status).toBe("ready_for_complete");
    const option = parcel.fulfillment!.methods[1]!.groups[0]!.options.find((entry) => entry.id === "pickup_gls-pakkeshop")!;
    const shipping = parcel.totals.find((entry) => entry.type === "fulfillment")!.amount;
    expect(shipping).toBe(option.totals[0]!.amount);
    const done = valid(checkoutResponse, await ucp("POST", `/ucp/checkout-sessions/${session.id}/complete`, { payment: { instruments: [{ id: "i", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }] } }));
    expect(done.status).toBe("completed");
    const order = await server.prisma.order.findUniqueOrThrow({ where: { id: done.order!.id } });
    expect(order).toMatchObject({ deliveryMethodId: "gls-pakkeshop", deliveryCarrier: "GLS" });
    expect(Number(order.shippingDkk)).toBe(shipping);
    expect(order.pickupPoint).toMatchObject({ id: "gls-kbh-shell-amager" });
  });
});
