// Shopify's reference agent client, @shopify/ucp-cli 0.9.0, driving the shop as an agent pinned to UCP 2026-08-25
// (a DIY profile made by `ucp profile init --version 2026-08-25`, found through the 2026-04-08 profile's
// supported_versions). Over the MCP binding: discover → catalog search → cart → checkout delivered home, and one to a
// parcel shop (a pickup method's business_location) → complete → order get; the same over REST with plain HTTP. Every
// answer against our zod reading of the version.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cartResponse } from "../../src/api/ucp/v2026-08-25-cart.ts";
import { searchResponse } from "../../src/api/ucp/v2026-08-25-catalog.ts";
import { checkoutResponse, orderResponse } from "../../src/api/ucp/v2026-08-25.ts";
import { sendJson, valid } from "../support/protocol.ts";
import { plainProducts } from "../support/session.ts";
import { useUcpCli } from "../support/ucp-cli.ts";

const cli = useUcpCli("2026-08-25");
const { server, ucp } = cli;

const BUYER = { email: "cli.0825@example.dk", first_name: "Mette", last_name: "Hansen" };
const HOME = { id: "home", type: "shipping_address", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const PAYMENT = { instruments: [{ id: "instr_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] };
const PAN = { instruments: [{ id: "instr_2", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "pan", number: "4242424242424242", expiry_month: 12, expiry_year: 2030 } }] };

/** The CLI lifts the ucp envelope out of the result: the rest is the resource as the server answered it. */
const checkout = checkoutResponse.omit({ ucp: true });
const search = searchResponse.omit({ ucp: true });
const cartShape = cartResponse.omit({ ucp: true });
const orderShape = orderResponse.omit({ ucp: true });
type Checkout = z.infer<typeof checkout>;
function shaped<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`violates the schema: ${JSON.stringify(parsed.error.issues)} in ${JSON.stringify(value)}`);
  return parsed.data;
}

/** The request-shaped lines of a checkout, carried forward on a full-replace update (as the CLI's skill says). */
const linesOf = (session: Checkout) => session.line_items.map((line) => ({ id: line.id, item: { id: line.item.id }, quantity: line.quantity }));
/** The parcel shops a checkout offers (its pickup method's business locations). */
const parcelShops = (session: Checkout) => session.fulfillment!.methods.flatMap((method) => (method.type === "pickup" ? method.destinations : []));

describe("@shopify/ucp-cli at 2026-08-25 over the MCP binding", () => {
  it("discovers, searches, builds a cart, checks out to a home address, completes and reads the order", { timeout: 180_000 }, async () => {
    const [product] = await plainProducts(server, 5);
    const discovered = await ucp(["discover"]);
    const protocol = (discovered.result as { protocol: { version: string; source: string } }).protocol;
    expect(protocol).toMatchObject({ version: "2026-08-25", source: "supported_versions" });
    const negotiated = JSON.stringify((discovered.result as { negotiated?: unknown }).negotiated);
    expect(negotiated).toContain("create_cart");
    expect(negotiated).toContain("search_catalog");

    const found = await ucp(["catalog", "search", "--set", `/query=${product!.name}`]);
    expect(found.ucp?.version).toBe("2026-08-25");
    const products = shaped(search, found.result).products;
    const itemId = products.find((entry) => entry.title === product!.name)!.variants[0]!.id;

    const cart = await ucp(["cart", "create", "--set", `/line_items/0/item/id=${itemId}`, "--set", "/line_items/0/quantity=2", "--set", "/context/address_country=DK"]);
    const shownCart = shaped(cartShape, cart.result);
    // Line ids are the lines' own, not their items'.
    expect(shownCart.line_items[0]).toMatchObject({ id: expect.stringMatching(/^li_/), item: { id: itemId }, quantity: 2 });
    // An update names the cart by its id argument only (cart.id is left out of the body).
    const updated = await ucp(["cart", "update", shownCart.id, "--input", JSON.stringify({ line_items: [{ item: { id: itemId }, quantity: 1 }] })]);
    expect(shaped(cartShape, updated.result).line_items[0]!.quantity).toBe(1);

    const created = shaped(checkout, (await ucp(["checkout", "create", "--input", JSON.stringify({ cart_id: shownCart.id })])).result);
    expect(created).toMatchObject({ id: shownCart.id, status: "incomplete" });
    const fulfillment = { methods: [{ type: "shipping", destinations: [HOME], selected_destination_id: "home" }] };
    const ready = shaped(checkout, (await ucp(["checkout", "update", created.id, "--input", JSON.stringify({ line_items: linesOf(created), buyer: BUYER, fulfillment })])).result);
    expect(ready.status).toBe("ready_for_complete");

    const done = await ucp(["checkout", "complete", created.id, "--input", JSON.stringify({ payment: PAYMENT })]);
    expect(done.ucp?.version).toBe("2026-08-25");
    const completed = shaped(checkout, done.result);
    expect(completed.status).toBe("completed");
    const order = shaped(orderShape, (await ucp(["order", "get", completed.order!.id])).result);
    expect(order).toMatchObject({ id: completed.order!.id, checkout_id: created.id, fulfillment: { expectations: [{ method_type: "shipping", destination: { postal_code: "1160" } }] } });
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: completed.order!.id } });
    expect(row).toMatchObject({ channel: "ucp", status: "paid", email: BUYER.email, shippingZip: "1160" });
  });

  it("checks out to a parcel shop: a pickup method's business location, paid with a PAN credential", { timeout: 180_000 }, async () => {
    const [product] = await plainProducts(server, 5);
    const created = shaped(checkout, (await ucp(["checkout", "create", "--input", JSON.stringify({ line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER })])).result);
    const shops = parcelShops(created);
    expect(shops.length).toBeGreaterThan(0);
    const chosen = shops.find((entry) => entry.name.startsWith("GLS")) ?? shops[0]!;
    expect(chosen).toMatchObject({ type: "business_location", address: { address_country: "DK" } });

    const fulfillment = { methods: [{ type: "pickup", selected_destination_id: chosen.id }] };
    const ready = shaped(checkout, (await ucp(["checkout", "update", created.id, "--input", JSON.stringify({ line_items: linesOf(created), buyer: BUYER, fulfillment })])).result);
    expect(ready.status).toBe("ready_for_complete");
    const pickup = ready.fulfillment!.methods.find((method) => method.type === "pickup")!;
    expect(pickup).toMatchObject({ selected_destination_id: chosen.id, groups: [{ selected_option_id: expect.stringMatching(/^pickup_/) }] });

    const completed = shaped(checkout, (await ucp(["checkout", "complete", created.id, "--input", JSON.stringify({ payment: PAN })])).result);
    expect(completed.status).toBe("completed");
    const order = shaped(orderShape, (await ucp(["order", "get", completed.order!.id])).result);
    expect(order.fulfillment.expectations![0]).toMatchObject({ method_type: "pickup", destination: { postal_code: chosen.address!.postal_code } });
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: completed.order!.id } });
    expect(row.pickupPoint).toMatchObject({ id: chosen.id });
  });
});

describe("the same flows over REST with plain HTTP (2026-08-25)", () => {
  it("searches, builds and updates a cart, converts it, checks out to a parcel shop, completes and reads the order", { timeout: 60_000 }, async () => {
    const agent = { "UCP-Agent": `profile="${cli.profile}"`, "Content-Type": "application/json" };
    const call = (method: string, path: string, body?: unknown, key = false) => sendJson(`${server.url}${path}`, method, key ? { ...agent, "Idempotency-Key": crypto.randomUUID() } : agent, body);
    const [product] = await plainProducts(server, 5);

    const found = valid(searchResponse, await call("POST", "/ucp/catalog/search", { query: product!.name }));
    expect(found.ucp.version).toBe("2026-08-25");
    const itemId = found.products.find((entry) => entry.title === product!.name)!.variants[0]!.id;
    const cart = await call("POST", "/ucp/carts", { line_items: [{ item: { id: itemId }, quantity: 2 }], context: { address_country: "DK" } });
    expect(cart.status).toBe(201);
    const cartId = valid(cartResponse, cart).id;
    const replaced = valid(cartResponse, await call("PUT", `/ucp/carts/${cartId}`, { line_items: [{ item: { id: itemId }, quantity: 1 }], buyer: BUYER }));
    expect(replaced).toMatchObject({ id: cartId, line_items: [{ quantity: 1 }], buyer: { email: BUYER.email } });

    const converted = await call("POST", "/ucp/checkout-sessions", { cart_id: cartId });
    expect(converted.status).toBe(201);
    const created = valid(checkoutResponse, converted);
    const chosen = created.fulfillment!.methods.flatMap((method) => (method.type === "pickup" ? method.destinations : []))[0]!;
    const fulfillment = { methods: [{ type: "pickup", selected_destination_id: chosen.id }] };
    const lines = created.line_items.map((line) => ({ id: line.id, item: { id: line.item.id }, quantity: line.quantity }));
    const ready = valid(checkoutResponse, await call("PUT", `/ucp/checkout-sessions/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment }));
    expect(ready.status).toBe("ready_for_complete");
    const done = valid(checkoutResponse, await call("POST", `/ucp/checkout-sessions/${created.id}/complete`, { payment: PAYMENT }, true));
    expect(done.status).toBe("completed");
    const order = valid(orderResponse, await call("GET", `/ucp/orders/${done.order!.id}`));
    expect(order).toMatchObject({ id: done.order!.id, checkout_id: created.id, fulfillment: { expectations: [{ method_type: "pickup" }] } });
    // The cart is gone once its order is placed.
    const gone = await call("GET", `/ucp/carts/${cartId}`);
    expect(gone.body).toMatchObject({ ucp: { version: "2026-08-25", status: "error" }, messages: [{ code: "not_found" }] });
  });
});
