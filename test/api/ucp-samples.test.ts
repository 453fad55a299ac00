// `shop import ucp-samples` on a tiny CSV shop of our own, then that shop through the real UCP door (2026-01-11, as the
// official conformance suite speaks it): ids kept, prices in USD without VAT, shipping by rate and promotion, an order
// in USD, and the test-mode simulation route (absent without its secret, 403 with a wrong one, ships with the right one).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v0111 from "../../src/api/ucp/v2026-01-11.ts";
import { openDatabase } from "../../src/core/db.ts";
import { shopCli, spawnShop, type ShopProcess } from "../support/process.ts";
import { startServer } from "../support/server.ts";

const FIXTURE: Record<string, string> = {
  "products.csv": 'id,title,price,image_url\nvase_blue,"Vase, blue",2000,https://example.com/vase.jpg\nfern,Fern,1500,\nsold_out,Gone,900,\n',
  "inventory.csv": "product_id,quantity\nvase_blue,5\nfern,3\nsold_out,0\n",
  "customers.csv": "id,name,email\nc_1,Ann Lee,Ann@Example.com\n",
  "addresses.csv": "id,customer_id,street_address,city,state,postal_code,country\na_1,c_1,1 Elm St,Springfield,IL,62704,US\n",
  "discounts.csv": "code,type,value,description\nTENOFF,percentage,10,10% off\nMINUS3,fixed_amount,300,$3 off\n",
  "promotions.csv": 'id,type,min_subtotal,eligible_item_ids,description\np_1,free_shipping,5000,,Free over $50\np_2,free_shipping,,"[""fern""]",Ferns ship free\n',
  "shipping_rates.csv": "id,country_code,service_level,price,title\nstd,default,standard,500,Standard\nexp-us,US,express,1500,Express (US)\nexp,default,express,2500,Express\n",
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-ucp-samples-"));
const fixtureDir = fs.mkdtempSync(path.join(os.tmpdir(), "ucp-fixture-"));
const SECRET = "sim-secret-for-tests";
let shop: ShopProcess;
let base: string;

beforeAll(async () => {
  for (const [name, text] of Object.entries(FIXTURE)) fs.writeFileSync(path.join(fixtureDir, name), text);
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(fixtureDir, { recursive: true, force: true });
});

async function ucp(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/ucp${route}`, {
    method,
    headers: { "Content-Type": "application/json", "UCP-Agent": 'version="2026-01-11"', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const destination = { id: "d_1", address_country: "US" };
const create = (item: string, quantity: number, extra: Record<string, unknown> = {}) =>
  ucp("POST", "/checkout-sessions", { currency: "USD", line_items: [{ item: { id: item, title: item }, quantity }], payment: { instruments: [] }, ...extra });

describe("shop import ucp-samples", () => {
  it("loads the CSV shop into an empty database with its ids, in USD without VAT, and refuses a second import", { timeout: 180_000 }, async () => {
    const env = { DATA_DIR: dataDir, SEED: "none" };
    const first = await shopCli(env, "import", "ucp-samples", fixtureDir);
    expect(first.stdout).toMatch(/Imported 3 products, 1 customers, 1 addresses, 2 discounts, 2 promotions and 3 shipping rates; prices in USD without VAT/);
    await expect(shopCli(env, "import", "ucp-samples", fixtureDir)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/already has a catalogue/) });
    await expect(shopCli(env, "import", "ucp-samples", path.join(fixtureDir, "nowhere"))).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/no products\.csv/) });

    const db = await openDatabase({ dataDir });
    try {
      const vase = await db.prisma.product.findUniqueOrThrow({ where: { id: "vase_blue" }, include: { images: true } });
      expect([vase.name, vase.priceDkk, vase.stock, vase.images.map((image) => image.url)]).toEqual(["Vase, blue", 2000n, 5n, ["https://example.com/vase.jpg"]]);
      expect(await db.prisma.address.findUniqueOrThrow({ where: { id: "a_1" } })).toMatchObject({ customerId: "c_1", name: "Ann Lee", region: "IL", country: "US", zip: "62704" });
      expect(await db.prisma.customer.findUniqueOrThrow({ where: { id: "c_1" } })).toMatchObject({ email: "ann@example.com" });
      expect((await db.prisma.discount.findMany({ orderBy: { code: "asc" } })).map((d) => [d.code, d.type, d.value])).toEqual([["MINUS3", "fixed", 300n], ["TENOFF", "percent", 10n]]);
      expect((await db.prisma.setting.findUniqueOrThrow({ where: { section: "commerce" } })).value).toEqual({ currency: "USD", pricesIncludeVat: false, checkoutNeeds: "country" });
      // The import left one audit entry as the local operator with its counts, never the files; the refusals none.
      const audit = await db.prisma.auditEntry.findMany({ where: { tool: "import.ucp_samples" } });
      expect(audit.map((entry) => [entry.actor, entry.door, entry.subjectType, entry.subjectId, entry.after])).toEqual([
        ["system:cli", "cli", "shop", "ucp-samples", { products: 3, customers: 1, addresses: 1, discounts: 2, promotions: 2, shippingRates: 3, currency: "USD" }],
      ]);
    } finally {
      await db.close();
    }
  });

  it("serves the imported shop over UCP: rates by country, promotions, codes, a USD order without VAT, simulated shipping", { timeout: 180_000 }, async () => {
    shop = spawnShop({ DATA_DIR: dataDir, SEED: "none", UCP_TEST_MODE: "1", UCP_SIMULATION_SECRET: SECRET, RATE_LIMIT_ANON_PER_MIN: "10000" });
    base = await shop.url(90_000);

    const created = await create("vase_blue", 1, { discounts: { codes: ["TENOFF", "MINUS3"] } });
    expect(created.status).toBe(201);
    const session = v0111.checkoutResponse.parse(created.body);
    expect(session.currency).toBe("USD");
    // 2000 − 10 % = 1800, − 300 = 1500; no destination yet, so no shipping and no tax line.
    expect(session.totals.map((t) => [t.type, t.amount])).toEqual([["subtotal", 2000], ["discount", 500], ["fulfillment", 0], ["total", 1500]]);

    const withCountry = await ucp("PUT", `/checkout-sessions/${session.id}`, {
      line_items: [{ item: { id: "vase_blue", title: "x" }, quantity: 1 }],
      discounts: { codes: ["TENOFF", "MINUS3"] },
      fulfillment: { methods: [{ type: "shipping", destinations: [destination], selected_destination_id: "d_1" }] },
    });
    expect(withCountry.status).toBe(200);
    const methods = (withCountry.body.fulfillment as { methods: Array<{ groups: Array<{ options: Array<{ id: string; title: string }> }> }> }).methods;
    // Per service level the country's own rate beats the default one; cheapest first.
    expect(methods[0]!.groups[0]!.options.map((option) => option.id)).toEqual(["std", "exp-us"]);
    expect(v0111.checkoutResponse.parse(withCountry.body).status).toBe("incomplete");

    const chosen = await ucp("PUT", `/checkout-sessions/${session.id}`, {
      line_items: [{ item: { id: "vase_blue", title: "x" }, quantity: 1 }],
      discounts: { codes: ["TENOFF", "MINUS3"] },
      fulfillment: { methods: [{ type: "shipping", destinations: [destination], selected_destination_id: "d_1", groups: [{ selected_option_id: "exp-us" }] }] },
    });
    const ready = v0111.checkoutResponse.parse(chosen.body);
    expect(ready.status).toBe("ready_for_complete");
    expect(ready.totals.map((t) => [t.type, t.amount])).toEqual([["subtotal", 2000], ["discount", 500], ["fulfillment", 1500], ["total", 3000]]);

    const paid = await ucp("POST", `/checkout-sessions/${session.id}/complete`, {
      payment_data: { id: "i_1", handler_id: "google_pay", type: "card", brand: "Visa", last_digits: "4242", credential: { type: "PAYMENT_GATEWAY", token: "success_token" } },
    });
    expect(paid.status).toBe(200);
    const done = v0111.checkoutResponse.parse(paid.body);
    expect(done.status).toBe("completed");
    expect(done.payment.instruments?.[0]).toMatchObject({ handler_id: "google_pay", brand: "Visa", last_digits: "4242" });
    const orderId = done.order!.id;

    const order = await ucp("GET", `/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({ currency: "USD" });

    // Simulated shipping: a wrong or missing secret is 403, the right one ships the order (its status through the tools).
    expect((await ucp("POST", `/testing/simulate-shipping/${orderId}`)).status).toBe(403);
    expect((await ucp("POST", `/testing/simulate-shipping/${orderId}`, undefined, { "Simulation-Secret": "wrong" })).status).toBe(403);
    const shipped = await ucp("POST", `/testing/simulate-shipping/${orderId}`, undefined, { "Simulation-Secret": SECRET });
    expect(shipped).toEqual({ status: 200, body: { status: "shipped", order_id: orderId } });
    expect((await ucp("POST", "/testing/simulate-shipping/nope", undefined, { "Simulation-Secret": SECRET })).status).toBe(404);
    await shop.stop();

    const db = await openDatabase({ dataDir });
    try {
      const row = await db.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
      expect([row.currency, row.status, row.subtotalDkk, row.discountDkk, row.shippingDkk, row.totalDkk, row.vatOere, row.shippingCountry, row.userId]).toEqual(["USD", "shipped", 2000n, 500n, 1500n, 3000n, null, "US", null]);
      expect((await db.prisma.product.findUniqueOrThrow({ where: { id: "vase_blue" } })).stock).toBe(4n);
      // No buyer e-mail was given, so no confirmation was sent anywhere.
      expect(await db.prisma.emailMessage.count({ where: { orderId } })).toBe(0);
    } finally {
      await db.close();
    }
  });

  it("makes standard shipping free by promotion, and answers 2026-01-11 stock shortfalls with 400", { timeout: 180_000 }, async () => {
    shop = spawnShop({ DATA_DIR: dataDir, SEED: "none", UCP_TEST_MODE: "1", RATE_LIMIT_ANON_PER_MIN: "10000" });
    base = await shop.url(90_000);
    const fulfillment = { methods: [{ type: "shipping", destinations: [{ id: "d_1", address_country: "DE" }], selected_destination_id: "d_1", groups: [{ selected_option_id: "std" }] }] };
    const reply = await create("fern", 1, { fulfillment });
    const fern = v0111.checkoutResponse.parse(reply.body);
    const options = (reply.body as unknown as { fulfillment: { methods: Array<{ groups: Array<{ options: Array<{ id: string; title: string }> }> }> } }).fulfillment.methods[0]!.groups[0]!.options;
    expect(options.map((option) => [option.id, option.title])).toEqual([["std", "Standard (Free)"], ["exp", "Express"]]);
    expect(fern.totals.find((t) => t.type === "fulfillment")!.amount).toBe(0);

    const short = await create("fern", 4);
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ messages: [{ code: "out_of_stock" }], detail: expect.stringMatching(/Insufficient stock/) });
    const unknown = await create("nothing_here", 1);
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/not found/);

    // Test mode, as the samples behave: a buyer's e-mail names the customer, whose saved addresses are offered, picked
    // by id, matched when given again; a new buyer's address is kept for their next session.
    type Method = { destinations?: Array<{ id: string; street_address?: string; address_country?: string }>; selected_destination_id?: string | null };
    const methodOf = (body: Record<string, unknown>) => (body.fulfillment as { methods: Method[] }).methods[0]!;
    const put = (id: string, method: Record<string, unknown>, email: string) =>
      ucp("PUT", `/checkout-sessions/${id}`, { line_items: [{ item: { id: "fern", title: "x" }, quantity: 1 }], buyer: { email }, fulfillment: { methods: [{ type: "shipping", ...method }] } });
    const ann = v0111.checkoutResponse.parse((await create("fern", 1, { buyer: { email: "ann@example.com" } })).body);
    const offered = methodOf((await put(ann.id, {}, "ann@example.com")).body);
    expect(offered.destinations!.map((entry) => [entry.id, entry.street_address])).toEqual([["a_1", "1 Elm St"]]);
    expect(offered.selected_destination_id).toBeNull();
    const picked = methodOf((await put(ann.id, { selected_destination_id: "a_1" }, "ann@example.com")).body);
    expect(picked.selected_destination_id).toBe("a_1");
    const same = { street_address: "1 Elm St", address_locality: "Springfield", address_region: "IL", postal_code: "62704", address_country: "US" };
    expect(methodOf((await put(ann.id, { destinations: [same] }, "ann@example.com")).body).destinations!.map((entry) => entry.id)).toEqual(["a_1"]);

    const newcomer = "new.buyer@example.com";
    const first = v0111.checkoutResponse.parse((await create("fern", 1, { buyer: { email: newcomer } })).body);
    const given = methodOf((await put(first.id, { destinations: [{ ...same, street_address: "9 Pine St" }] }, newcomer)).body);
    const keptId = given.destinations![0]!.id;
    expect(keptId).toMatch(/^c/);
    const second = v0111.checkoutResponse.parse((await create("fern", 1, { buyer: { email: newcomer } })).body);
    expect(methodOf((await put(second.id, {}, newcomer)).body).destinations!.map((entry) => entry.id)).toEqual([keptId]);

    // Without UCP_SIMULATION_SECRET the simulation route does not exist.
    expect((await ucp("POST", "/testing/simulate-shipping/x", undefined, { "Simulation-Secret": "x" })).status).toBe(404);
  });

  it("has no simulation route outside test mode even with a secret", async () => {
    const server = await startServer({ ucpTestMode: false, ucpSimulationSecret: SECRET });
    try {
      const response = await fetch(`${server.url}/ucp/testing/simulate-shipping/x`, { method: "POST", headers: { "Simulation-Secret": SECRET } });
      expect(response.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
