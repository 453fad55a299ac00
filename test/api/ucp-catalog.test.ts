// The UCP 2026-04-08 catalog capability through real HTTP, REST (/ucp/catalog/…) and MCP (/ucp/mcp): search by text and
// filters with cursors, lookup by product and variant ids, product detail with option selection, every success against
// our zod reading of the version; hidden products, bad input, unsupported versions and the door's rate limit.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import * as v0111 from "../../src/api/ucp/v2026-01-11.ts";
import { catalogErrorResponse, lookupResponse, productResponse, searchResponse } from "../../src/api/ucp/v2026-04-08-catalog.ts";
import { checkoutResponse, errorResponse } from "../../src/api/ucp/v2026-04-08.ts";
import { expectOk } from "../support/expect.ts";
import { sendJson, valid, type Reply } from "../support/protocol.ts";
import { startServer, useServer } from "../support/server.ts";
import { plainProducts, variantProduct } from "../support/session.ts";
import { serveProfiles, type ProfileServer } from "../support/ucp-profile.ts";

let profiles: ProfileServer;
let base: string;
const ROUTES: Record<string, unknown> = {
  "/shopper.json": { name: "Catalog Shopper", ucp: { version: "2026-04-08" } },
  "/old.json": { ucp: { version: "2026-01-11" } },
  "/ancient.json": { ucp: { version: "2025-01-01" } },
};
beforeAll(async () => {
  profiles = await serveProfiles(ROUTES);
  base = profiles.base;
});
const { server, keys } = useServer({ config: { ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" }, keys: { writer: ["products:write", "catalog:read"] } });
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await profiles.close();
});

const prisma = () => server.prisma;
const agent = (name = "shopper") => `profile="${base}/${name}.json"`;

/** A catalog request as an anonymous agent sends it (no key), with or without a UCP-Agent header. */
function post(path: string, body: unknown, headers: Record<string, string> = { "UCP-Agent": agent() }): Promise<Reply> {
  return sendJson(`${server.url}/ucp/catalog/${path}`, "POST", { "Content-Type": "application/json", ...headers }, body);
}

function expectError(reply: Reply, status: number, code: string): void {
  if (reply.status !== status) throw new Error(`expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  expect(valid(errorResponse, reply).messages[0]!.code).toBe(code);
}

async function search(body: unknown) {
  const reply = await post("search", body);
  if (reply.status !== 200) throw new Error(`search answered ${reply.status}: ${reply.text}`);
  return valid(searchResponse, reply);
}

async function lookup(body: unknown) {
  const reply = await post("lookup", body);
  if (reply.status !== 200) throw new Error(`lookup answered ${reply.status}: ${reply.text}`);
  return valid(lookupResponse, reply);
}

async function product(body: unknown) {
  const reply = await post("product", body);
  if (reply.status !== 200) throw new Error(`product answered ${reply.status}: ${reply.text}`);
  return valid(productResponse, reply);
}

describe("UCP catalog: discovery", () => {
  it("advertises search and lookup in the 2026-04-08 profile only", async () => {
    const latest = (await (await fetch(`${server.url}/.well-known/ucp`)).json()) as { ucp: { capabilities: Record<string, unknown> } };
    expect(latest.ucp.capabilities["dev.ucp.shopping.catalog.search"]).toEqual([
      { version: "2026-04-08", spec: "https://ucp.dev/2026-04-08/specification/catalog/search", schema: "https://ucp.dev/2026-04-08/schemas/shopping/catalog_search.json" },
    ]);
    expect(latest.ucp.capabilities["dev.ucp.shopping.catalog.lookup"]).toEqual([
      { version: "2026-04-08", spec: "https://ucp.dev/2026-04-08/specification/catalog/lookup", schema: "https://ucp.dev/2026-04-08/schemas/shopping/catalog_lookup.json" },
    ]);
    expect(JSON.stringify(await (await fetch(`${server.url}/ucp/.well-known/ucp`)).json())).not.toContain("catalog");
  });
});

describe("UCP catalog: search (REST)", () => {
  it("finds a product by text, priced in minor units of the shop currency, with absolute image URLs", async () => {
    const [wanted] = await plainProducts(server);
    const row = await prisma().product.findUniqueOrThrow({ where: { id: wanted!.id }, include: { images: { orderBy: { position: "asc" } }, category: true } });
    const body = await search({ query: row.name, pagination: { limit: 50 } });
    expect(body.ucp.capabilities).toEqual({ "dev.ucp.shopping.catalog.search": [{ version: "2026-04-08" }] });
    const found = body.products.find((entry) => entry.id === row.id)!;
    expect(found).toMatchObject({
      handle: row.slug,
      title: row.name,
      description: { plain: row.description },
      url: `https://shop.example.dk/products/${row.slug}`,
      categories: [{ value: row.category.name, taxonomy: "merchant" }],
      price_range: { min: { amount: Number(row.priceDkk), currency: "DKK" }, max: { amount: Number(row.priceDkk), currency: "DKK" } },
    });
    expect(found.media!.map((media) => media.url)).toEqual(row.images.map((image) => (image.url.startsWith("/") ? `https://shop.example.dk${image.url}` : image.url)));
    // A product without variants is its own only variant: its id is the checkout item id.
    expect(found.variants).toEqual([
      expect.objectContaining({ id: row.id, price: { amount: Number(row.priceDkk), currency: "DKK" }, availability: { available: true, status: "in_stock" } }),
    ]);
    expect(found.options).toBeUndefined();
  });

  it("answers an empty list without messages when nothing matches", async () => {
    const body = await search({ query: "zzqx-nothing-like-this" });
    expect(body.products).toEqual([]);
    expect(body.messages).toBeUndefined();
    expect(body.pagination).toEqual({ has_next_page: false });
  });

  it("pages with opaque cursors through exactly what products.search finds, clamping the page size", async () => {
    const all = expectOk<Array<{ id: string }>>(server, "products.search", await server.call("products.search", { categorySlug: "briller", limit: 100 }));
    expect(all.length).toBeGreaterThan(12);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 4; page++) {
      const body = await search({ filters: { categories: ["Briller"] }, pagination: { limit: 4, ...(cursor ? { cursor } : {}) } });
      expect(body.products.length).toBe(4);
      seen.push(...body.products.map((entry) => entry.id));
      expect(body.pagination!.has_next_page).toBe(true);
      cursor = body.pagination!.cursor;
    }
    expect(seen).toEqual(all.slice(0, 16).map((entry) => entry.id));
    // The category by slug, any case, is the same filter; a page size above 50 is clamped.
    const wide = await search({ filters: { categories: ["BRILLER"] }, pagination: { limit: 10_000 } });
    expect(wide.products.map((entry) => entry.id)).toEqual(all.slice(0, 50).map((entry) => entry.id));
    // The default page size is 10.
    expect((await search({ filters: { categories: ["briller"] } })).products).toHaveLength(10);
  });

  it("filters by price (in the shop currency) on every variant, and ignores a price filter in another currency with a warning", async () => {
    const body = await search({ filters: { categories: ["solbriller"], price: { min: 50_000, max: 90_000 } }, pagination: { limit: 50 } });
    expect(body.products.length).toBeGreaterThan(0);
    const prices = body.products.flatMap((entry) => entry.variants.map((variant) => variant.price.amount));
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(50_000);
    expect(Math.max(...prices)).toBeLessThanOrEqual(90_000);
    const dkk = await search({ filters: { categories: ["solbriller"], price: { max: 1 } }, context: { currency: "dkk" } });
    expect(dkk.products).toEqual([]);
    const usd = await search({ filters: { categories: ["solbriller"], price: { max: 1 } }, context: { currency: "USD" } });
    expect(usd.products.length).toBeGreaterThan(0);
    expect(usd.messages).toEqual([{ type: "warning", code: "price_filter_ignored", content: "Prices are in DKK; the price filter in USD was not applied." }]);
  });

  it("shows a product with variants as its options and variants, each variant's id a checkout item id", async () => {
    const row = await variantProduct(server);
    const body = await search({ query: row.name, pagination: { limit: 50 } });
    const found = body.products.find((entry) => entry.id === row.id)!;
    expect(found.variants.map((variant) => variant.id).sort()).toEqual(row.variants.map((variant) => variant.id).sort());
    const names = [...new Set(row.variants.flatMap((variant) => Object.keys(variant.attributes as object)))];
    expect(found.options!.map((option) => option.name)).toEqual(names);
    const variant = row.variants.find((entry) => entry.priceDkk !== null && entry.stock > 0n)!;
    expect(found.variants.find((entry) => entry.id === variant.id)).toMatchObject({ sku: variant.sku, price: { amount: Number(variant.priceDkk), currency: "DKK" }, availability: { available: true } });
    const checkout = await sendJson(`${server.url}/ucp/checkout-sessions`, "POST", { "Content-Type": "application/json", "UCP-Agent": agent() }, { line_items: [{ item: { id: variant.id }, quantity: 1 }] });
    expect(checkout.status).toBe(201);
    expect(valid(checkoutResponse, checkout).line_items[0]!.item).toMatchObject({ id: variant.id, price: Number(variant.priceDkk) });
  });
});

describe("UCP catalog: lookup and product (REST)", () => {
  it("looks up product and variant ids, each product once, with inputs saying how each id resolved", async () => {
    const [plain] = await plainProducts(server);
    const row = await variantProduct(server);
    const exact = row.variants.at(-1)!;
    const body = await lookup({ ids: [plain!.id, row.id, exact.id, "no-such-id", plain!.id] });
    expect(body.ucp.capabilities).toEqual({ "dev.ucp.shopping.catalog.lookup": [{ version: "2026-04-08" }] });
    expect(body.products.map((entry) => entry.id)).toEqual([plain!.id, row.id]);
    expect(body.products[0]!.variants).toEqual([expect.objectContaining({ id: plain!.id, inputs: [{ id: plain!.id, match: "exact" }] })]);
    const inputs = Object.fromEntries(body.products[1]!.variants.map((variant) => [variant.id, variant.inputs]));
    const featuredId = body.products[1]!.variants[0]!.id;
    expect(inputs[featuredId]).toContainEqual({ id: row.id, match: "featured" });
    expect(inputs[exact.id]).toContainEqual({ id: exact.id, match: "exact" });
    expect(body.messages).toEqual([{ type: "info", code: "not_found", content: "no-such-id" }]);
  });

  it("answers unknown ids with no products and a not_found info each", async () => {
    const long = `https://elsewhere.example/${"x".repeat(200)}`;
    const body = await lookup({ ids: ["nope-1", long, "nope-2"] });
    expect(body.products).toEqual([]);
    expect(body.messages!.map((message) => message.content)).toEqual(["nope-1", long, "nope-2"]);
    expect((await lookup({ ids: [long] })).messages).toEqual([{ type: "info", code: "not_found", content: long }]);
  });

  it("gets one product: the featured variant's selection, option signals, narrowing by selected options", async () => {
    const row = await variantProduct(server);
    const body = await product({ id: row.id });
    expect(body.product.id).toBe(row.id);
    const first = body.product.variants[0]!;
    expect(body.product.selected).toEqual(first.options);
    for (const option of body.product.options!) for (const value of option.values) expect(typeof value.exists).toBe("boolean");

    const target = row.variants.at(-1)!;
    const [name, label] = Object.entries(target.attributes as Record<string, string>)[0]!;
    const narrowed = await product({ id: row.id, selected: [{ name: name.toUpperCase(), label }, { name: "Farve", label: "Lilla" }], preferences: [name] });
    // The unknown option is relaxed away; the kept one narrows the variants.
    expect(narrowed.product.selected).toEqual([{ name, label }]);
    for (const variant of narrowed.product.variants) expect(variant.options).toContainEqual({ name, label });

    const byVariant = await product({ id: target.id, selected: [{ name, label: "ignored" }] });
    expect(byVariant.product.variants[0]!.id).toBe(target.id);
    expect(byVariant.product.selected).toEqual(Object.entries(target.attributes as Record<string, string>).map(([key, value]) => ({ name: key, label: value })));
  });

  it("carries the product's safety information (GPSR) in the detail's metadata, the one place UCP's product has for it", async () => {
    const [row] = await plainProducts(server, 1);
    const detail = await product({ id: row!.id });
    expect(detail.product.metadata?.product_safety).toEqual({
      manufacturer: { name: "Nordlys Eyewear A/S", address: expect.any(String), contact: expect.any(String) },
      ...((await prisma().product.findUniqueOrThrow({ where: { id: row!.id } })).safety as { warnings: string }).warnings ? { warnings: expect.any(String) } : {},
    });
    const found = await search({ query: row!.name });
    for (const item of found.products) expect(item.metadata?.product_safety).toBeUndefined();
  });

  it("answers an unknown product with 200 and the lookup capability's error", async () => {
    const reply = await post("product", { id: "prod_invalid" });
    expect(reply.status).toBe(200);
    expect(valid(catalogErrorResponse, reply).messages).toEqual([{ type: "error", code: "not_found", content: "Product not found: prod_invalid", severity: "unrecoverable" }]);
  });

  it("never shows deleted products or drafts", async () => {
    const deleted = await prisma().product.findUniqueOrThrow({ where: { slug: "ray-ban-multifocal-studio-27" } });
    expect(deleted.deletedAt).not.toBeNull();
    const created = await server.call("products.create", { name: "Kladde Katalog Demo", slug: "kladde-katalog-demo", description: "En kladde, som agenter ikke må se.", priceDkk: 59900, stock: 4, categorySlug: "solbriller", draft: true }, { key: keys.writer });
    expect(created.status).toBe(200);
    const draft = await prisma().product.findUniqueOrThrow({ where: { slug: "kladde-katalog-demo" } });
    for (const hidden of [deleted, draft]) {
      expect((await lookup({ ids: [hidden.id] })).messages).toEqual([{ type: "info", code: "not_found", content: hidden.id }]);
      expect(valid(catalogErrorResponse, await post("product", { id: hidden.id })).messages[0]!.code).toBe("not_found");
      expect((await search({ query: hidden.name, pagination: { limit: 50 } })).products.map((entry) => entry.id)).not.toContain(hidden.id);
    }
  });
});

describe("UCP catalog: refusals (REST)", () => {
  it("answers bad input with the version's 400 error, never a 500", async () => {
    const cases: Array<[string, unknown, string]> = [
      ["search", {}, "invalid_request"],
      ["search", { query: "   " }, "invalid_request"],
      ["search", { query: "x".repeat(201) }, "invalid_request"],
      ["search", { query: 5 }, "invalid_request"],
      ["search", { query: "sol", pagination: { limit: 0 } }, "invalid_request"],
      ["search", { query: "sol", pagination: { cursor: "bm9wZQ" } }, "invalid_request"],
      ["search", { filters: { price: { min: -1 } } }, "invalid_request"],
      ["search", { filters: { categories: ["solbriller", "briller"] } }, "invalid_request"],
      ["search", [1, 2], "invalid_request"],
      ["search", "\"text\"", "invalid_request"],
      ["lookup", {}, "invalid_request"],
      ["lookup", { ids: [] }, "invalid_request"],
      ["lookup", { ids: [""] }, "invalid_request"],
      ["lookup", { ids: "p1" }, "invalid_request"],
      ["lookup", { ids: Array.from({ length: 51 }, (_, index) => `id-${index}`) }, "request_too_large"],
      ["product", {}, "invalid_request"],
      ["product", { id: "p1", selected: [{ name: "size", label: "M" }, { name: "Size", label: "L" }] }, "invalid_request"],
      ["product", { id: "p1", selected: "size" }, "invalid_request"],
      ["product", null, "invalid_request"],
    ];
    for (const [path, body, code] of cases) expectError(await post(path, body), 400, code);
  });

  it("refuses broken JSON (400), huge bodies (413) and other methods (404) in the error shape", async () => {
    expectError(await post("search", "{not json"), 400, "invalid_json");
    expectError(await post("lookup", JSON.stringify({ ids: ["a"], pad: "x".repeat(300_000) })), 413, "payload_too_large");
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    expect((await post("search", deep)).status).toBe(400);
    expectError(await sendJson(`${server.url}/ucp/catalog/search`, "GET", {}), 404, "not_found");
  });

  it("answers anonymously without UCP-Agent, and refuses versions without a catalog (422 version_unsupported)", async () => {
    expect((await post("lookup", { ids: ["x"] }, {})).status).toBe(200);
    expectError(await post("search", { query: "sol" }, { "UCP-Agent": agent("ancient") }), 422, "version_unsupported");
    const old = await post("lookup", { ids: ["x"] }, { "UCP-Agent": agent("old") });
    expect(old.status).toBe(422);
    expect(old.body).toEqual(v0111.error("version_unsupported", (old.body as { messages: Array<{ content: string }> }).messages[0]!.content, "requires_buyer_input"));
  });

  it("is budgeted like the rest of the UCP door", async () => {
    const limited = await startServer({ rateLimitAnonPerMin: 2 });
    try {
      const send = () => sendJson(`${limited.url}/ucp/catalog/lookup`, "POST", { "Content-Type": "application/json" }, { ids: ["x"] });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(valid(errorResponse, refused).messages[0]!.code).toBe("rate_limited");
    } finally {
      await limited.close();
    }
  });
});

describe("UCP catalog: MCP binding", () => {
  async function connect(): Promise<Client> {
    const client = new Client({ name: "vitest-ucp-catalog", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/ucp/mcp`)));
    clients.push(client);
    return client;
  }
  const meta = (name = "shopper") => ({ "ucp-agent": { profile: `${base}/${name}.json` } });
  async function call(client: Client, name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    expect(result.isError).toBeFalsy();
    return result.structuredContent;
  }
  function shaped<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new Error(`violates the schema: ${JSON.stringify(parsed.error.issues)} in ${JSON.stringify(value)}`);
    return parsed.data;
  }
  async function rpcError(promise: Promise<unknown>) {
    const error = await promise.then(() => null, (reason: unknown) => reason);
    if (!(error instanceof McpError)) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
    return error as unknown as { code: number; data: { code: string } };
  }

  it("lists search_catalog, lookup_catalog and get_product with meta and catalog arguments", async () => {
    const { tools } = await (await connect()).listTools();
    for (const name of ["search_catalog", "lookup_catalog", "get_product"]) {
      const tool = tools.find((entry) => entry.name === name)!;
      expect((tool.inputSchema as { required: string[] }).required).toEqual(["meta", "catalog"]);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  it("runs the same operations as REST, in the same shapes", async () => {
    const client = await connect();
    const row = await variantProduct(server);
    const found = shaped(searchResponse, await call(client, "search_catalog", { meta: meta(), catalog: { query: row.name, pagination: { limit: 50 } } }));
    expect(found.products.map((entry) => entry.id)).toContain(row.id);
    const rest = await search({ query: row.name, pagination: { limit: 50 } });
    expect(found).toEqual(rest);

    const looked = shaped(lookupResponse, await call(client, "lookup_catalog", { meta: meta(), catalog: { ids: [row.variants[0]!.id, "nope"] } }));
    expect(looked.products[0]!.variants.map((variant) => variant.inputs)).toEqual([[{ id: row.variants[0]!.id, match: "exact" }]]);
    expect(looked.messages).toEqual([{ type: "info", code: "not_found", content: "nope" }]);

    const detail = shaped(productResponse, await call(client, "get_product", { meta: meta(), catalog: { id: row.id } }));
    expect(detail.product.id).toBe(row.id);
    // An unknown product is a result (not isError) carrying the error response.
    shaped(catalogErrorResponse, await call(client, "get_product", { meta: meta(), catalog: { id: "prod_invalid" } }));
  });

  it("maps bad arguments to -32602 and versions without a catalog to -32001", async () => {
    const client = await connect();
    expect((await rpcError(client.callTool({ name: "search_catalog", arguments: { meta: meta() } }))).code).toBe(-32602);
    expect((await rpcError(client.callTool({ name: "search_catalog", arguments: { meta: meta(), catalog: {} } }))).code).toBe(-32602);
    const tooMany = await rpcError(client.callTool({ name: "lookup_catalog", arguments: { meta: meta(), catalog: { ids: Array.from({ length: 51 }, (_, index) => `id-${index}`) } } }));
    expect([tooMany.code, tooMany.data.code]).toEqual([-32602, "request_too_large"]);
    expect((await rpcError(client.callTool({ name: "get_product", arguments: { catalog: { id: "x" } } }))).data.code).toBe("invalid_profile_url");
    const old = await rpcError(client.callTool({ name: "lookup_catalog", arguments: { meta: meta("old"), catalog: { ids: ["x"] } } }));
    expect([old.code, old.data.code]).toEqual([-32001, "version_unsupported"]);
  });
});
