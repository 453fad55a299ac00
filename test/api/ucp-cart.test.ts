// The UCP 2026-04-08 cart capability through real HTTP, REST (/ucp/carts…) and MCP (create_cart, get_cart, update_cart,
// cancel_cart): carts against our zod reading of the version, estimated totals, refused items, conversion into a checkout
// with cart_id (one checkout per cart, changes shown in the cart, gone once completed), ownership, bad input, versions.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { cartErrorResponse, cartResponse } from "../../src/api/ucp/v2026-04-08-cart.ts";
import { checkoutResponse, errorResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts, variantProduct } from "../support/session.ts";
import { serveProfiles, type ProfileServer } from "../support/ucp-profile.ts";

let profiles: ProfileServer;
let base: string;
const ROUTES: Record<string, unknown> = {
  "/shopper.json": { name: "Cart Shopper", ucp: { version: "2026-04-08" } },
  "/other.json": { ucp: { version: "2026-04-08" } },
  "/old.json": { ucp: { version: "2026-01-11" } },
};
beforeAll(async () => {
  profiles = await serveProfiles(ROUTES);
  base = profiles.base;
});
const { server } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" } });
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await profiles.close();
});

const agent = (name = "shopper") => `profile="${base}/${name}.json"`;
function ucp(method: string, path: string, body?: unknown, headers: Record<string, string> = { "UCP-Agent": agent() }): Promise<Reply> {
  return sendJson(`${server.url}/ucp${path}`, method, { "Content-Type": "application/json", ...headers }, body);
}
const BUYER = { email: "cart.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const fulfillment = { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] };
const pay = { payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] } };

function expectCart(reply: Reply, status = 200) {
  if (reply.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${reply.text}`);
  return valid(cartResponse, reply);
}
function expectGone(reply: Reply) {
  expect(reply.status).toBe(200);
  expect(valid(cartErrorResponse, reply).messages).toEqual([{ type: "error", code: "not_found", content: "Cart not found or has expired.", severity: "unrecoverable" }]);
}
function expectError(reply: Reply, status: number, code: string): void {
  if (reply.status !== status) throw new Error(`expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  expect(valid(errorResponse, reply).messages[0]!.code).toBe(code);
}

async function newCart(quantity = 1, extra: Record<string, unknown> = {}) {
  const [product] = await plainProducts(server, 3);
  return { product: product!, cart: expectCart(await ucp("POST", "/carts", { line_items: [{ item: { id: product!.id }, quantity }], ...extra }), 201) };
}

describe("UCP cart (REST)", () => {
  it("is advertised in the 2026-04-08 profile", async () => {
    const profile = (await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { ucp: { capabilities: Record<string, unknown> } };
    expect(profile.ucp.capabilities["dev.ucp.shopping.cart"]).toEqual([
      { version: "2026-04-08", spec: "https://ucp.dev/2026-04-08/specification/cart", schema: "https://ucp.dev/2026-04-08/schemas/shopping/cart.json" },
    ]);
  });

  it("creates, reads and replaces a cart at catalogue prices, with estimated totals and only line messages", async () => {
    const { product, cart } = await newCart(2, { buyer: BUYER, context: { address_country: "DK" } });
    expect(cart.ucp.capabilities["dev.ucp.shopping.cart"]).toEqual([{ version: "2026-04-08" }]);
    expect(cart.line_items).toEqual([{ id: "li_1", item: { id: product.id, title: product.name, price: product.priceDkk }, quantity: 2, totals: [{ type: "subtotal", amount: 2 * product.priceDkk }, { type: "total", amount: 2 * product.priceDkk }] }]);
    expect(cart).toMatchObject({ currency: "DKK", buyer: { email: BUYER.email } });
    // The buyer continues the cart's session on its signed hand-off page (the cart is that session).
    expect(cart.continue_url).toMatch(new RegExp(`^https://shop\\.example\\.dk/checkout/agent/${cart.id}\\?expires=\\d+&token=[\\w-]{43}$`));
    expect(cart.totals.find((entry) => entry.type === "subtotal")!.amount).toBe(2 * product.priceDkk);
    // What a checkout would still need (destination, shipping option) is not the cart's business.
    expect(cart.messages).toBeUndefined();
    expect(expectCart(await ucp("GET", `/carts/${cart.id}`))).toEqual(cart);

    const variant = (await variantProduct(server)).variants.find((entry) => entry.stock > 0n)!;
    const updated = expectCart(await ucp("PUT", `/carts/${cart.id}`, { id: cart.id, line_items: [{ id: "li_1", item: { id: product.id }, quantity: 1 }, { item: { id: variant.id }, quantity: 1 }] }));
    expect(updated.line_items.map((line) => [line.id, line.item.id, line.quantity])).toEqual([["li_1", product.id, 1], ["li_2", variant.id, 1]]);
    expect(updated.buyer).toMatchObject({ email: BUYER.email });
  });

  it("answers unknown items as outcomes: no cart on create, the cart as it was (refusal first) on update", async () => {
    const created = await ucp("POST", "/carts", { line_items: [{ item: { id: "no-such-item" }, quantity: 1 }] });
    expect(created.status).toBe(200);
    expect(valid(cartErrorResponse, created).messages[0]).toMatchObject({ code: "item_unavailable", severity: "unrecoverable" });
    const { cart } = await newCart();
    const refused = expectCart(await ucp("PUT", `/carts/${cart.id}`, { line_items: [{ item: { id: "no-such-item" }, quantity: 1 }] }));
    expect(refused.line_items).toEqual(cart.line_items);
    expect(refused.messages![0]).toMatchObject({ type: "error", code: "item_unavailable", severity: "recoverable" });
    // Too many of an item is a line message, not a refusal.
    const { product } = await newCart();
    const short = expectCart(await ucp("POST", "/carts", { line_items: [{ item: { id: product.id }, quantity: product.stock + 1 }] }), 201);
    expect(short.messages).toEqual([expect.objectContaining({ type: "error", code: "out_of_stock", path: "$.line_items[0].quantity" })]);
  });

  it("converts into one checkout with cart_id; checkout changes show in the cart, which is gone once the order is placed", async () => {
    const { product, cart } = await newCart(1, { buyer: BUYER });
    const converted = await ucp("POST", "/checkout-sessions", { cart_id: cart.id, line_items: [{ item: { id: "ignored" }, quantity: 9 }], buyer: { email: "ignored@example.dk" }, fulfillment });
    expect(converted.status).toBe(201);
    const checkout = valid(checkoutResponse, converted);
    expect(checkout.id).toBe(cart.id);
    expect(checkout.line_items.map((line) => [line.item.id, line.quantity])).toEqual([[product.id, 1]]);
    expect(checkout.buyer).toMatchObject({ email: BUYER.email });
    expect(checkout.fulfillment!.methods[0]!.destinations![0]).toMatchObject({ street_address: DESTINATION.street_address });
    // Converting again answers the same checkout.
    expect(valid(checkoutResponse, await ucp("POST", "/checkout-sessions", { cart_id: cart.id, line_items: [] })).id).toBe(cart.id);

    const changed = await ucp("PUT", `/checkout-sessions/${cart.id}`, { line_items: [{ item: { id: product.id }, quantity: 2 }], buyer: BUYER, fulfillment });
    expect(changed.status).toBe(200);
    expect(expectCart(await ucp("GET", `/carts/${cart.id}`)).line_items[0]!.quantity).toBe(2);

    const ready = valid(checkoutResponse, await ucp("GET", `/checkout-sessions/${cart.id}`));
    const option = ready.fulfillment!.methods[0]!.groups![0]!.options[0]!.id;
    await ucp("PUT", `/checkout-sessions/${cart.id}`, { line_items: [{ item: { id: product.id }, quantity: 2 }], buyer: BUYER, fulfillment: { methods: [{ ...fulfillment.methods[0], groups: [{ id: "fg_1", selected_option_id: option }] }] } });
    const completed = await ucp("POST", `/checkout-sessions/${cart.id}/complete`, pay, { "UCP-Agent": agent(), "Idempotency-Key": `cart-${cart.id}` });
    expect(valid(checkoutResponse, completed).status).toBe("completed");
    expectGone(await ucp("GET", `/carts/${cart.id}`));
    const again = await ucp("POST", "/checkout-sessions", { cart_id: cart.id });
    expect(again.status).toBe(200);
    expect(valid(errorResponse, again).messages[0]!.code).toBe("not_found");
  });

  it("cancels a cart, answering it as it was; afterwards it is not found", async () => {
    const { cart } = await newCart();
    const canceled = expectCart(await ucp("POST", `/carts/${cart.id}/cancel`, {}));
    expect(canceled.line_items).toEqual(cart.line_items);
    expectGone(await ucp("GET", `/carts/${cart.id}`));
    expectGone(await ucp("PUT", `/carts/${cart.id}`, { line_items: cart.line_items.map((line) => ({ item: { id: line.item.id }, quantity: 1 })) }));
    expectGone(await ucp("POST", `/carts/${cart.id}/cancel`, {}));
  });

  it("belongs to its creator: another agent and made-up ids find no cart", async () => {
    const { cart } = await newCart();
    expectGone(await ucp("GET", `/carts/${cart.id}`, undefined, { "UCP-Agent": agent("other") }));
    expectGone(await ucp("POST", `/carts/${cart.id}/cancel`, {}, { "UCP-Agent": agent("other") }));
    expectGone(await ucp("GET", "/carts/cart_abc123"));
    expectGone(await ucp("GET", `/carts/chk_${"0".repeat(32)}`));
    expect(expectCart(await ucp("GET", `/carts/${cart.id}`)).id).toBe(cart.id);
  });

  it("answers bad input with the version's 400 (413 for huge bodies), and 2026-01-11 agents with 422", async () => {
    for (const body of [{}, { line_items: [] }, { line_items: [{ item: { id: "x" }, quantity: 0 }] }, { line_items: "x" }, [1], "\"text\""]) {
      expectError(await ucp("POST", "/carts", body), 400, "invalid_request");
    }
    const { cart } = await newCart();
    expectError(await ucp("PUT", `/carts/${cart.id}`, { line_items: [] }), 400, "invalid_request");
    expectError(await ucp("POST", "/checkout-sessions", { cart_id: 5 }), 400, "invalid_request");
    expectError(await ucp("POST", "/carts", "{not json"), 400, "invalid_json");
    expectError(await ucp("POST", "/carts", JSON.stringify({ line_items: [], pad: "x".repeat(300_000) })), 413, "payload_too_large");
    const old = await ucp("POST", "/carts", { line_items: [{ item: { id: "x" }, quantity: 1 }] }, { "UCP-Agent": agent("old") });
    expect(old.status).toBe(422);
    expect(old.body).toMatchObject({ ucp: { version: "2026-01-11", status: "error" }, messages: [{ code: "version_unsupported" }] });
  });
});

describe("UCP cart (MCP)", () => {
  const meta = (extra: Record<string, unknown> = {}) => ({ "ucp-agent": { profile: `${base}/shopper.json` }, ...extra });
  async function connect(): Promise<Client> {
    const client = new Client({ name: "vitest-ucp-cart", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/ucp/mcp`)));
    clients.push(client);
    return client;
  }
  function shaped<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new Error(`violates the schema: ${JSON.stringify(parsed.error.issues)} in ${JSON.stringify(value)}`);
    return parsed.data;
  }
  async function call(client: Client, name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    expect(result.isError).toBeFalsy();
    return result.structuredContent;
  }

  it("lists the cart tools with the spec's arguments; cancel_cart needs an idempotency key", async () => {
    const { tools } = await (await connect()).listTools();
    const required = (name: string) => (tools.find((tool) => tool.name === name)!.inputSchema as { required: string[] }).required;
    expect([required("create_cart"), required("get_cart"), required("update_cart"), required("cancel_cart")]).toEqual([["meta", "cart"], ["meta", "id"], ["meta", "id", "cart"], ["meta", "id"]]);
    const cancel = tools.find((tool) => tool.name === "cancel_cart")!;
    expect((cancel.inputSchema as unknown as { properties: { meta: { required: string[] } } }).properties.meta.required).toEqual(["ucp-agent", "idempotency-key"]);
  });

  it("runs a cart from create to checkout as REST does", async () => {
    const client = await connect();
    const [product] = await plainProducts(server, 3);
    const cart = shaped(cartResponse, await call(client, "create_cart", { meta: meta(), cart: { line_items: [{ item: { id: product!.id }, quantity: 1 }], buyer: BUYER } }));
    expect(shaped(cartResponse, await call(client, "get_cart", { meta: meta(), id: cart.id }))).toEqual(cart);
    const updated = shaped(cartResponse, await call(client, "update_cart", { meta: meta(), id: cart.id, cart: { line_items: [{ item: { id: product!.id }, quantity: 2 }] } }));
    expect(updated.line_items[0]!.quantity).toBe(2);
    const checkout = shaped(checkoutResponse, await call(client, "create_checkout", { meta: meta(), checkout: { cart_id: cart.id, fulfillment } }));
    expect([checkout.id, checkout.line_items[0]!.quantity]).toEqual([cart.id, 2]);

    const other = shaped(cartResponse, await call(client, "create_cart", { meta: meta(), cart: { line_items: [{ item: { id: product!.id }, quantity: 1 }] } }));
    const refused = await client.callTool({ name: "cancel_cart", arguments: { meta: meta(), id: other.id } }).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32602);
    shaped(cartResponse, await call(client, "cancel_cart", { meta: meta({ "idempotency-key": `cancel-${other.id}` }), id: other.id }));
    // A cart that is gone is a result carrying the error response, not an isError.
    shaped(cartErrorResponse, await call(client, "get_cart", { meta: meta(), id: other.id }));
  });
});
