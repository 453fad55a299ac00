// Advertised = answered at UCP 2026-08-25: on a full instance, every spec and schema URL the 2026-08-25 business profile
// advertises (services, capabilities) must resolve in the UCP specification, and every answer of the shop must validate
// against the schema advertised for it (Ajv, JSON Schema 2020-12): the profile, checkouts through their lifecycle against
// the checkout schema and each advertised extension's checkout, the order, an error. The specification is not copied
// into this repository: UCP_SPEC_DIR names a checkout of Universal-Commerce-Protocol/ucp at the 2026-08-25 cut (its
// source/ and docs/specification/). Without it the file is skipped and says so.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, type Reply } from "../support/protocol.ts";
import { useServer } from "../support/server.ts";
import { plainProducts } from "../support/session.ts";
import { serveProfiles, type ProfileServer } from "../support/ucp-profile.ts";

const SPEC_DIR = process.env.UCP_SPEC_DIR;
const VERSION = "2026-08-25";
const BASE = `https://ucp.dev/${VERSION}/`;

/** Where an advertised URL lives in the specification's repository, or null when it is not the spec's. */
function located(url: string): string | null {
  if (!SPEC_DIR || !url.startsWith(BASE)) return null;
  const rest = url.slice(BASE.length);
  if (rest.startsWith("schemas/") || rest.startsWith("services/")) return join(SPEC_DIR, "source", rest);
  if (rest.startsWith("specification/")) {
    const page = join(SPEC_DIR, "docs", rest);
    return [`${page}.md`, join(page, "index.md")].find((candidate) => existsSync(candidate)) ?? `${page}.md`;
  }
  return null;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith(".json") ? [path] : [];
  });
}

/** Every schema of the specification, by its $id (the unversioned ucp.dev address its $refs resolve against). */
function specAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  for (const file of jsonFiles(join(SPEC_DIR!, "source", "schemas"))) {
    const schema = JSON.parse(readFileSync(file, "utf8")) as { $id?: string };
    if (schema.$id) ajv.addSchema(schema);
  }
  return ajv;
}

/** The $id of an advertised schema URL: the same document without the version segment. */
const idOf = (url: string) => url.replace(BASE, "https://ucp.dev/");

let profiles: ProfileServer;
beforeAll(async () => {
  profiles = await serveProfiles({ "/agent.json": { name: "Schema walker", ucp: { version: VERSION } } });
});
afterAll(async () => {
  await profiles?.close();
});

describe.skipIf(!SPEC_DIR)(`UCP ${VERSION}: what the profile advertises is what the shop answers (UCP_SPEC_DIR=${SPEC_DIR ?? "unset: skipped"})`, () => {
  const { server } = useServer({ config: () => ({ ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: "https://shop.example.dk" }) });
  const ucp = (method: string, path: string, body?: unknown): Promise<Reply> =>
    sendJson(`${server.url}${path}`, method, { "UCP-Agent": `profile="${profiles.base}/agent.json"`, "Content-Type": "application/json" }, body);

  it("resolves every advertised URL and validates every answer against its advertised schema", async () => {
    const ajv = specAjv();
    const judge = (ref: string, body: unknown, what: string) => {
      const validate = ajv.getSchema(ref);
      expect(validate, `${ref} is a schema of the specification`).toBeTruthy();
      const ok = validate!(body);
      expect(ok ? [] : validate!.errors!.slice(0, 5), `${what} against ${ref}`).toEqual([]);
    };

    const reply = await ucp("GET", `/ucp/${VERSION}/.well-known/ucp`);
    expect(reply.status).toBe(200);
    const profile = reply.body as { ucp: { services: Record<string, Array<{ spec: string; schema: string }>>; capabilities: Record<string, Array<{ spec: string; schema: string; extends?: string }>> } };
    judge("https://ucp.dev/schemas/profile.json#/$defs/business_schema", profile, "the business profile");

    // Every spec page and schema named resolves in the specification; schemas are JSON (and JSON Schemas where they are).
    const entries = [...Object.values(profile.ucp.services).flat(), ...Object.values(profile.ucp.capabilities).flat()];
    const urls = [...new Set(entries.flatMap((entry) => [entry.spec, entry.schema]))];
    expect(urls.length).toBeGreaterThan(10);
    for (const url of urls) {
      const path = located(url);
      expect(path, `${url} is an address of the ${VERSION} specification`).not.toBeNull();
      expect(existsSync(path!), `${url} resolves (${path})`).toBe(true);
      if (url.endsWith(".json")) JSON.parse(readFileSync(path!, "utf8"));
      if (url.includes("/schemas/")) expect(ajv.getSchema(idOf(url)), `${url} is a schema`).toBeTruthy();
    }

    // The checkout as each advertised capability describes it: the base schema, and each extension's checkout.
    const checkoutSchemas = Object.entries(profile.ucp.capabilities).flatMap(([name, list]) =>
      list.flatMap((entry) => (name === "dev.ucp.shopping.checkout" ? [idOf(entry.schema)] : entry.extends === "dev.ucp.shopping.checkout" ? [`${idOf(entry.schema)}#/$defs/dev.ucp.shopping.checkout`] : [])),
    );
    expect(checkoutSchemas.length).toBe(6);
    const judgeCheckout = (body: unknown, what: string) => {
      for (const ref of checkoutSchemas) judge(ref, body, what);
    };

    const [product] = await plainProducts(server, 1);
    const lines = [{ item: { id: product!.id }, quantity: 1 }];
    const buyer = { email: "skema@example.dk", first_name: "Kim", last_name: "Skov", consent: { "dev.ucp.consent.marketing": { granted: true, segments: { "dev.ucp.consent.marketing.email": { granted: true } } } } };
    const created = await ucp("POST", "/ucp/checkout-sessions", { line_items: lines, buyer });
    expect(created.status).toBe(201);
    judgeCheckout(created.body, "an incomplete checkout");
    const id = created.body.id as string;
    const home = { methods: [{ type: "shipping", destinations: [{ id: "d1", street_address: "Nørregade 1", postal_code: "1165", address_locality: "København K", address_country: "DK" }], selected_destination_id: "d1" }] };
    const ready = await ucp("PUT", `/ucp/checkout-sessions/${id}`, { line_items: lines, buyer, fulfillment: home, discounts: { codes: ["NOSUCHCODE"] } });
    expect(ready.body.status).toBe("ready_for_complete");
    judgeCheckout(ready.body, "a checkout ready to complete");
    const parcel = await ucp("PUT", `/ucp/checkout-sessions/${id}`, { line_items: lines, buyer, fulfillment: { methods: [{ type: "pickup", selected_destination_id: "pn-aarhus-foetex" }] } });
    judgeCheckout(parcel.body, "a checkout to a parcel shop");
    const done = await ucp("POST", `/ucp/checkout-sessions/${id}/complete`, { payment: { instruments: [{ id: "i1", handler_id: "mock_payment_handler", type: "card", credential: { type: "token", token: "success_token" } }] } });
    expect(done.body.status).toBe("completed");
    judgeCheckout(done.body, "a completed checkout");

    const order = await ucp("GET", `/ucp/orders/${(done.body.order as { id: string }).id}`);
    expect(order.status).toBe(200);
    const orderSchema = profile.ucp.capabilities["dev.ucp.shopping.order"]![0]!.schema;
    judge(idOf(orderSchema), order.body, "the order");

    const missing = await ucp("GET", "/ucp/checkout-sessions/chk_00000000000000000000");
    expect(missing.status).toBe(404);
    judge("https://ucp.dev/schemas/common/types/error_response.json", missing.body, "an error response");
  });
});
