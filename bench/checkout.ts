// Write targets of `npm run bench`: a full UCP checkout over the REST binding (create → update with buyer and
// destination → complete with the test payment handler and an Idempotency-Key), the same checkout through the ACP REST
// door (Bearer key, API-Version, an Idempotency-Key on every POST), against one REST `orders.create` of the same lines. Each is one iteration of a closed loop (bench/search.ts runs a fixed number of them at once); the bench
// products get stock enough that nothing sells out.
import crypto from "node:crypto";
import type { Db } from "../src/core/db.ts";
import { createKey } from "../src/tools/keys/key-secrets.ts";

export interface WriteTarget {
  name: string;
  /** One full iteration; resolves to the response body bytes it read, throws on any unexpected answer. */
  run: () => Promise<number>;
}

/** What the write targets need from the seeded database: the product mix, an `orders:write` and a `checkout:agent` key. */
export interface WriteFixture {
  products: Array<{ id: string; slug: string; quantity: number }>;
  secret: string;
  agentSecret: string;
}

/** The rows' names (BENCH_ONLY matches them before any server runs). */
export const WRITE_NAMES = { ucp: "UCP checkout create → update → complete", acp: "ACP checkout create → update → complete", orders: "REST orders.create" } as const;
const STOCK = 10_000_000;
const BUYER = { email: "bench.buyer@example.dk", first_name: "Mette", last_name: "Hansen" };
const DESTINATION = { id: "addr_1", street_address: "Strøget 12", postal_code: "1160", address_locality: "København K", address_country: "DK" };
const FULFILLMENT = { methods: [{ type: "shipping", destinations: [DESTINATION], selected_destination_id: "addr_1" }] };
const PAYMENT = { payment: { instruments: [{ id: "pi_1", handler_id: "mock_payment_handler", type: "card", selected: true, credential: { type: "token", token: "success_token" } }] } };
const SHIPPING = { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" };
const ACP_BUYER = { first_name: "Mette", last_name: "Hansen", email: BUYER.email };
const ACP_DETAILS = { name: "Mette Hansen", address: { name: "Mette Hansen", line_one: "Strøget 12", city: "København K", state: "", country: "DK", postal_code: "1160" } };
const ACP_PAYMENT = { payment_data: { handler_id: "mock_payment_handler", instrument: { type: "card", credential: { type: "token", token: "success_token" } } } };

/** Two plain products (one unit of the first, two of the second) with ample stock, an `orders:write` and an agent key. */
export async function prepareWrites(db: Db): Promise<WriteFixture> {
  const rows = await db.product.findMany({ where: { deletedAt: null, variants: { none: {} } }, orderBy: { slug: "asc" }, take: 2 });
  await db.product.updateMany({ where: { id: { in: rows.map((row) => row.id) } }, data: { stock: STOCK } });
  const { secret } = await createKey(db, "bench", ["orders:write"]);
  const { secret: agentSecret } = await createKey(db, "bench agent", ["checkout:agent"]);
  return { products: rows.map((row, i) => ({ id: row.id, slug: row.slug, quantity: i + 1 })), secret, agentSecret };
}

export function writeTargets(origin: string, fixture: WriteFixture): WriteTarget[] {
  /** Sends JSON, expects `status` and a body matching `check`; the parsed body and its size. */
  async function call(method: string, path: string, body: unknown, status: number, headers: Record<string, string> = {}) {
    const response = await fetch(origin + path, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return { json: JSON.parse(text) as { id?: string; status?: string }, bytes: Buffer.byteLength(text) };
  }
  const lines = fixture.products.map((product) => ({ item: { id: product.id }, quantity: product.quantity }));
  const ucpCheckout = async () => {
    const created = await call("POST", "/ucp/checkout-sessions", { line_items: lines }, 201);
    const session = `/ucp/checkout-sessions/${created.json.id}`;
    const updated = await call("PUT", session, { line_items: lines, buyer: BUYER, fulfillment: FULFILLMENT }, 200);
    if (updated.json.status !== "ready_for_complete") throw new Error(`update left the session ${updated.json.status}`);
    const completed = await call("POST", `${session}/complete`, PAYMENT, 200, { "idempotency-key": crypto.randomUUID() });
    if (completed.json.status !== "completed") throw new Error(`complete left the session ${completed.json.status}`);
    return created.bytes + updated.bytes + completed.bytes;
  };
  // ACP's Item has no quantity: a unit is the item repeated.
  const acpItems = fixture.products.flatMap((product) => Array.from({ length: product.quantity }, () => ({ id: product.id })));
  const acpHeaders = () => ({ authorization: `Bearer ${fixture.agentSecret}`, "api-version": "2026-04-17", "idempotency-key": crypto.randomUUID() });
  const acpCheckout = async () => {
    const created = await call("POST", "/acp/checkout_sessions", { line_items: acpItems, currency: "dkk", capabilities: {} }, 201, acpHeaders());
    const session = `/acp/checkout_sessions/${created.json.id}`;
    const updated = await call("POST", session, { buyer: ACP_BUYER, fulfillment_details: ACP_DETAILS }, 200, acpHeaders());
    if (updated.json.status !== "ready_for_payment") throw new Error(`update left the session ${updated.json.status}`);
    const completed = await call("POST", `${session}/complete`, ACP_PAYMENT, 200, acpHeaders());
    if (completed.json.status !== "completed") throw new Error(`complete left the session ${completed.json.status}`);
    return created.bytes + updated.bytes + completed.bytes;
  };
  const items = fixture.products.map((product) => ({ productSlug: product.slug, quantity: product.quantity }));
  const ordersCreate = async () =>
    (await call("POST", "/api/v1/tools/orders.create", { items, email: BUYER.email, shipping: SHIPPING }, 200, { authorization: `Bearer ${fixture.secret}` })).bytes;
  return [
    { name: WRITE_NAMES.ucp, run: ucpCheckout },
    { name: WRITE_NAMES.acp, run: acpCheckout },
    { name: WRITE_NAMES.orders, run: ordersCreate },
  ];
}
