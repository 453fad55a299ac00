// Shopify's reference agent client, @shopify/ucp-cli 0.9.0, driving the shop as an agent would: the CLI binary spawned
// with the pinned Node, a DIY 2026-04-08 profile whose document the test serves, plain HTTP on loopback
// (UCP_TEST_ALLOW_INSECURE_LOCALHOST; test/support/ucp-cli.ts). Over the MCP binding: discover → catalog search → cart →
// checkout (delivery to home) → complete → order get; a checkout to a parcel shop (the pickup method's retail
// locations); the same flow over REST with plain HTTP; and an escalation: the agent builds the checkout, the buyer opens
// continue_url and completes it on the hand-off page, the agent sees it completed. 2026-08-25: ucp-cli-0825.test.ts.
import { describe, expect, it } from "vitest";
import { checkoutResponse, orderResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { sendJson, valid } from "../support/protocol.ts";
import { plainProducts } from "../support/session.ts";
import { useUcpCli } from "../support/ucp-cli.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";

const cli = useUcpCli("2026-04-08");
const { server, ucp } = cli;

const BUYER = { email: "cli.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const HOME = { id: "home", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const PAYMENT = { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] };

describe("@shopify/ucp-cli over the MCP binding (2026-04-08)", () => {
  it("discovers, searches, builds a cart, checks out to a home address, completes and reads the order", { timeout: 180_000 }, async () => {
    const [product] = await plainProducts(server, 5);
    const discovered = await ucp(["discover"]);
    expect((discovered.result as { protocol: { version: string } }).protocol.version).toBe("2026-04-08");
    const negotiated = JSON.stringify((discovered.result as { negotiated?: unknown }).negotiated ?? discovered.result);
    expect(negotiated).toContain('"transport":"mcp"');
    expect(negotiated).toContain("update_checkout");

    const found = await ucp(["catalog", "search", "--set", `/query=${product!.name}`]);
    const products = (found.result as { products: Array<{ title: string; variants: Array<{ id: string }> }> }).products;
    expect(products.map((entry) => entry.title)).toContain(product!.name);
    const itemId = products.find((entry) => entry.title === product!.name)!.variants[0]!.id;

    const cart = await ucp(["cart", "create", "--set", `/line_items/0/item/id=${itemId}`, "--set", "/line_items/0/quantity=2", "--set", "/context/address_country=DK"]);
    expect(cart.result.id).toMatch(/^chk_/);

    const checkout = await ucp(["checkout", "create", "--input", JSON.stringify({ cart_id: cart.result.id, line_items: [] })]);
    expect(checkout.result).toMatchObject({ id: cart.result.id, status: "incomplete" });
    const lines = (checkout.result as { line_items: Array<{ id: string; item: { id: string }; quantity: number }> }).line_items.map((line) => ({ id: line.id, item: { id: line.item.id }, quantity: line.quantity }));

    // Full replace, as the skill says: the request-shaped lines carried forward, buyer and a home delivery added.
    const schema = await ucp(["checkout", "update", "--input-schema"]);
    expect(JSON.stringify(schema.result)).toContain("line_items");
    const fulfillment = { methods: [{ type: "shipping", destinations: [HOME], selected_destination_id: "home" }] };
    const ready = await ucp(["checkout", "update", String(checkout.result.id), "--input", JSON.stringify({ line_items: lines, buyer: BUYER, fulfillment })]);
    expect(ready.result.status).toBe("ready_for_complete");

    const done = await ucp(["checkout", "complete", String(checkout.result.id), "--input", JSON.stringify({ payment: PAYMENT })]);
    // The CLI lifts the ucp envelope out of the result; the rest is the checkout as the server answered it.
    expect(done.ucp?.version).toBe("2026-04-08");
    const completed = done.result as { id: string; status: string; order: { id: string; permalink_url: string } };
    expect(completed.status).toBe("completed");
    expect(completed.order.permalink_url).toMatch(/\/orders\/[\w-]+\/pay\?token=/);

    const order = await ucp(["order", "get", completed.order!.id]);
    expect(order.result).toMatchObject({ id: completed.order!.id, checkout_id: completed.id });
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: completed.order!.id } });
    expect(row).toMatchObject({ channel: "ucp", status: "paid", email: BUYER.email, shippingZip: "1160" });
  });

  it("checks out to a parcel shop: the pickup method's retail location, its carrier's option taken", { timeout: 180_000 }, async () => {
    const [product] = await plainProducts(server, 5);
    const created = await ucp(["checkout", "create", "--input", JSON.stringify({ line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER })]);
    const session = checkoutResponse.omit({ ucp: true }).parse(created.result);
    const pickup = session.fulfillment!.methods.find((method) => method.type === "pickup")!;
    const shop = pickup.destinations![0]!;
    const lines = session.line_items.map((line) => ({ id: line.id, item: { id: line.item.id }, quantity: line.quantity }));
    const fulfillment = { methods: [{ type: "pickup", selected_destination_id: shop.id }] };
    const ready = await ucp(["checkout", "update", session.id, "--input", JSON.stringify({ line_items: lines, buyer: BUYER, fulfillment })]);
    expect(ready.result.status).toBe("ready_for_complete");
    const done = await ucp(["checkout", "complete", session.id, "--input", JSON.stringify({ payment: PAYMENT })]);
    const completed = done.result as { status: string; order: { id: string } };
    expect(completed.status).toBe("completed");
    const order = await ucp(["order", "get", completed.order.id]);
    expect(order.result).toMatchObject({ id: completed.order.id, fulfillment: { expectations: [{ method_type: "pickup" }] } });
    const row = await server.prisma.order.findUniqueOrThrow({ where: { id: completed.order.id } });
    expect(row.pickupPoint).toMatchObject({ id: shop.id });
  });

  it("hands the buyer over: continue_url opens the checkout, the buyer completes it there, the agent sees it completed", { timeout: 180_000 }, async () => {
    const [product] = await plainProducts(server, 5);
    const checkout = await ucp(["checkout", "create", "--set", `/line_items/0/item/id=${product!.id}`, "--set", "/line_items/0/quantity=1"]);
    expect(checkout.result.status).toBe("incomplete");
    // The agent goes no further ("this is as far as I got you"): the buyer opens continue_url.
    const link = new URL(checkout.result.continue_url!);
    const buyer = new WebClient(server);
    const page = await buyer.get(`${link.pathname}${link.search}`);
    expectHtmlPage(page);
    expect(page.html).toContain("Det mangler");
    const placed = await buyer.post(`${link.pathname}${link.search}`, { email: "handoff@example.dk", name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K", action: "complete" });
    expectRedirect(placed, /^\/orders\/[\w-]+\/pay\?token=/);

    const seen = await ucp(["checkout", "get", String(checkout.result.id)]);
    expect(seen.result.status).toBe("completed");
    const orderId = (seen.result as { order: { id: string } }).order.id;
    const order = await ucp(["order", "get", orderId]);
    expect(order.result).toMatchObject({ id: orderId, checkout_id: checkout.result.id });
  });
});

describe("the same flow over REST with plain HTTP (2026-04-08)", () => {
  it("discovers, searches, builds a cart, checks out to a home address, completes and reads the order", { timeout: 60_000 }, async () => {
    const agent = { "UCP-Agent": `profile="${cli.profile}"`, "Content-Type": "application/json" };
    const call = (method: string, path: string, body?: unknown, key = false) => sendJson(`${server.url}${path}`, method, key ? { ...agent, "Idempotency-Key": crypto.randomUUID() } : agent, body);
    const [product] = await plainProducts(server, 5);
    const profile = (await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { ucp: { version: string; services: Record<string, Array<{ transport: string; endpoint: string }>> } };
    expect(profile.ucp.services["dev.ucp.shopping"]!.map((service) => service.transport)).toEqual(expect.arrayContaining(["rest", "mcp"]));

    const found = await call("POST", "/ucp/catalog/search", { query: product!.name });
    expect(found.status).toBe(200);
    const itemId = (found.body as { products: Array<{ title: string; variants: Array<{ id: string }> }> }).products.find((entry) => entry.title === product!.name)!.variants[0]!.id;
    const cart = await call("POST", "/ucp/carts", { line_items: [{ item: { id: itemId }, quantity: 2 }], context: { address_country: "DK" } });
    expect(cart.status).toBe(201);
    const cartId = (cart.body as { id: string }).id;
    const checkout = valid(checkoutResponse, await call("POST", "/ucp/checkout-sessions", { cart_id: cartId, line_items: [] }));
    const lines = checkout.line_items.map((line) => ({ id: line.id, item: { id: line.item.id }, quantity: line.quantity }));
    const fulfillment = { methods: [{ type: "shipping", destinations: [HOME], selected_destination_id: "home" }] };
    const ready = valid(checkoutResponse, await call("PUT", `/ucp/checkout-sessions/${checkout.id}`, { line_items: lines, buyer: BUYER, fulfillment }));
    expect(ready.status).toBe("ready_for_complete");
    const done = valid(checkoutResponse, await call("POST", `/ucp/checkout-sessions/${checkout.id}/complete`, { payment: PAYMENT }, true));
    expect(done.status).toBe("completed");
    const order = valid(orderResponse, await call("GET", `/ucp/orders/${done.order!.id}`));
    expect(order).toMatchObject({ id: done.order!.id, checkout_id: checkout.id });
  });
});
