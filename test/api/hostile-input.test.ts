// Values no tool accepts (NUL, lone surrogates, prototype keys, deep nesting) answer 400 at validation, on every door,
// and store nothing; other Unicode is kept. Database data errors that still occur map to 400, never 422 or 500.
import { describe, expect, it } from "vitest";
import { toToolError } from "../../src/core/errors.ts";
import { auditCount, expectOk, expectProblem } from "../support/expect.ts";
import { mcpCall } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";
import { ADDRESS, newSession } from "../support/session.ts";

const { server, keys: { admin } } = useServer({ keys: { admin: ["*"] } });

const NUL = "\u0000";
const LONE = "Mette \ud800";

/** The call answers 400 invalid_input naming `path`, over REST and MCP alike. */
async function expectRefused(name: string, input: unknown, path: string, options: { cookie?: string } = {}) {
  const rest = await server.call(name, input, { key: options.cookie ? undefined : admin, ...options });
  expectProblem(rest, 400, "invalid_input");
  expect((rest.body.errors as Array<{ path: string }>).map((e) => e.path), `${name} ${JSON.stringify(input)}`).toContain(path);
  if (!options.cookie) {
    const mcp = await mcpCall(server, name, input, { key: admin });
    expect(mcp.status).toBe(400);
    expect(mcp.body).toMatchObject({ ok: false, code: "invalid_input" });
  }
}

describe("NUL characters", () => {
  it("are refused with 400 in every string input that used to reach the database", async () => {
    const before = await auditCount(server);
    for (const name of ["orders.update_status", "orders.cancel", "orders.refund", "orders.resend_confirmation", "orders.set_tracking", "orders.get"]) {
      await expectRefused(name, { orderId: NUL }, "orderId");
    }
    await expectRefused("products.delete", { slug: `a${NUL}b`, confirm: true }, "slug");
    await expectRefused("products.delete_variant", { slug: NUL, sku: "x", confirm: true }, "slug");
    await expectRefused("products.attach_image", { slug: NUL, imageUrl: "https://example.com/a.jpg" }, "slug");
    await expectRefused("products.detach_image", { slug: NUL, imageUrl: "https://example.com/a.jpg" }, "slug");
    await expectRefused("products.update", { slug: NUL, patch: { name: "Nyt navn" } }, "slug");
    await expectRefused("customer.list", { q: NUL }, "q");
    await expectRefused("address.autocomplete", { q: `Str${NUL}` }, "q");
    await expectRefused("marketing.schedule_campaign", { id: NUL, sendAt: null }, "id");
    await expectRefused("marketing.update_campaign", { id: NUL, patch: { name: "x" } }, "id");
    await expectRefused("pages.upsert", { slug: "nul-side", title: "Titel", body: `En lang tekst med ${NUL} i midten.` }, "body");
    expect(await server.prisma.page.count({ where: { slug: "nul-side" } })).toBe(0);
    expect(await auditCount(server)).toBe(before);
  });

  it("in object keys are refused too", async () => {
    await expectRefused("products.update", { slug: "gucci-oversize-bold-74", patch: { attributes: { [`a${NUL}`]: "x" } } }, "patch.attributes.a\uFFFD");
  });
});

describe("lone surrogates", () => {
  it("are refused with 400 wherever they would reach a JSON or text column", async () => {
    const settingsBefore = await server.prisma.setting.findMany({ orderBy: { section: "asc" } });
    await expectRefused("settings.update_branding", { tagline: LONE }, "tagline");
    await expectRefused("settings.update_contact", { address: LONE }, "address");
    await expectRefused("settings.update_policies", { returns: LONE }, "returns");
    await expectRefused("products.upsert_variant", { slug: "gucci-oversize-bold-74", sku: "lone-1", attributes: { size: LONE }, stock: 1 }, "attributes.size");
    await expectRefused("products.update", { slug: "gucci-oversize-bold-74", patch: { name: "Lav \udc00 pris" } }, "patch.name");
    expect(await server.prisma.setting.findMany({ orderBy: { section: "asc" } })).toEqual(settingsBefore);
  });

  it("are refused for a shopper session without a key (cart address, discount code)", async () => {
    const cookie = await newSession(server);
    await expectRefused("cart.set_shipping_address", { ...ADDRESS, name: LONE }, "name", { cookie });
    await expectRefused("discounts.try_apply", { code: `VELKOMMEN10${"\udfff"}` }, "code", { cookie });
    const cart = await server.prisma.cart.findFirst({ where: { session: { id: decodeURIComponent(cookie.split("=")[1]!).split(".")[0]! } } });
    expect(cart?.shipping ?? null).toBeNull();
  });

  it("leave other Unicode alone: Danish letters, emoji and paired surrogates are stored as given", async () => {
    const body = "## Øjne 👓\n\nBriller til hele familien — også dem med “særlige” ønsker: 𝒜𝒷𝒸.";
    const saved = await server.call("pages.upsert", { slug: "unicode-side", title: "Æble 🍎", body }, { key: admin });
    expect(saved.status).toBe(200);
    const page = await server.call("pages.get", { slug: "unicode-side" }, { key: admin });
    expect(page.body.result).toMatchObject({ title: "Æble 🍎", body });
  });
});

describe("prototype keys and deep nesting", () => {
  it("refuses a __proto__, constructor or prototype key instead of silently dropping it", async () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const raw = `{"slug":"gucci-oversize-bold-74","sku":"proto-${key}","stock":1,"attributes":{"${key}":{"size":"XL"},"size":"M"}}`;
      const rest = await server.call("products.upsert_variant", undefined, { key: admin, raw });
      expectProblem(rest, 400, "invalid_input");
      expect(rest.body.errors).toContainEqual({ path: `attributes.${key}`, message: `The key ${key} is not allowed.` });
    }
    expect(await server.prisma.productVariant.count({ where: { sku: { startsWith: "proto-" } } })).toBe(0);
  });

  it("refuses __proto__ over MCP, where the JSON-RPC parser has already turned it into a prototype", async () => {
    const raw = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"products.upsert_variant","arguments":{"__proto__":{"stock":1},"slug":"gucci-oversize-bold-74","sku":"proto-mcp"}}}`;
    const response = await fetch(`${server.url}/api/mcp`, { method: "POST", headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" }, body: raw });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { isError: boolean; structuredContent: { status: number; code: string } } };
    expect(body.result.isError, JSON.stringify(body)).toBe(true);
    expect(body.result.structuredContent).toMatchObject({ status: 400, code: "invalid_input" });
    expect(await server.prisma.productVariant.count({ where: { sku: "proto-mcp" } })).toBe(0);
  });

  it("refuses __proto__ over MCP 2026-07-28 too", async () => {
    const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"fuzz","version":"1"}}`;
    const raw = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"products.upsert_variant","arguments":{"__proto__":{"stock":1},"slug":"gucci-oversize-bold-74","sku":"proto-modern"},"_meta":${meta}}}`;
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "products.upsert_variant" };
    const response = await fetch(`${server.url}/api/mcp`, { method: "POST", headers: { authorization: `Bearer ${admin}`, "content-type": "application/json", ...headers }, body: raw });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect((JSON.parse(text) as { result: { isError: boolean; structuredContent: unknown } }).result, text).toMatchObject({ isError: true, structuredContent: { status: 400, code: "invalid_input" } });
    expect(await server.prisma.productVariant.count({ where: { sku: "proto-modern" } })).toBe(0);
  });

  it("refuses values nested deeper than any tool needs", async () => {
    let deep: unknown = "bund";
    for (let i = 0; i < 40; i++) deep = { x: deep };
    const response = await server.call("products.update", { slug: "gucci-oversize-bold-74", patch: { attributes: deep } }, { key: admin });
    expectProblem(response, 400, "invalid_input");
    expect((response.body.errors as Array<{ message: string }>)[0]!.message).toMatch(/nest at most/);
  });
});

describe("JSON nested thousands of levels deep", () => {
  const DEEP = `${'{"a":'.repeat(1000)}${"[".repeat(2000)}${"]".repeat(2000)}${"}".repeat(1000)}`;
  const rpc = (name: string, args: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
  const acpCreate = `{"line_items":[{"id":"x"}],"currency":"dkk","capabilities":{},"metadata":${DEEP}}`;
  const ucpAgent = { "ucp-agent": 'profile="https://agent.example/profile.json"' };
  const rpcHeaders = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  type Shape = (body: Record<string, unknown>) => unknown;
  const problem: Shape = (body) => expect(body).toMatchObject({ ok: false, status: 400, code: "invalid_json" });
  const parseError = (data?: Record<string, unknown>): Shape => (body) => expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: -32700, ...(data ? { data } : {}) } });
  // Every door that reads a JSON body: [path, headers, body, the door's own 400 shape].
  const doors = (): Array<[string, Record<string, string>, string, Shape]> => [
    ["/api/v1/tools/products.search", { authorization: `Bearer ${admin}` }, `{"q":"sol","x":${DEEP}}`, problem],
    ["/api/mcp", { authorization: `Bearer ${admin}`, ...rpcHeaders }, rpc("products.search", `{"q":${DEEP}}`), parseError()],
    ["/ucp/checkout-sessions", ucpAgent, `{"line_items":[],"buyer":${DEEP}}`, (body) => expect(body).toMatchObject({ ucp: { status: "error" }, messages: [{ type: "error", code: "invalid_json" }] })],
    ["/ucp/mcp", { ...ucpAgent, ...rpcHeaders }, rpc("create_checkout", `{"checkout":${DEEP}}`), parseError({ code: "invalid_json" })],
    ["/acp/checkout_sessions", { authorization: `Bearer ${admin}`, "api-version": "2026-04-17", "idempotency-key": "deep-1" }, acpCreate, (body) => expect(body).toMatchObject({ type: "invalid_request", code: "invalid_json" })],
    ["/acp/mcp", { authorization: `Bearer ${admin}`, ...rpcHeaders }, rpc("create_checkout_session", `{"meta":{"api_version":"2026-04-17","idempotency_key":"deep-2"},"payload":${acpCreate}}`), parseError({ type: "invalid_request", code: "invalid_json" })],
    ["/api/v1/chat/storefront", {}, `{"id":"c1","messages":${DEEP}}`, problem],
    ["/api/v1/chat/admin", { authorization: `Bearer ${admin}` }, `{"id":"c1","messages":${DEEP}}`, problem],
    ["/api/v1/session/login", {}, `{"email":${DEEP}}`, problem],
    ["/webhooks/stripe", { "stripe-signature": "t=1,v1=00" }, `{"type":"checkout.session.completed","data":${DEEP}}`, problem],
  ];

  it("is refused at every door with a 400 in the door's own shape, never a 500, and nothing is written", async () => {
    const before = await server.prisma.checkoutSession.count();
    for (const [path, headers, body, shape] of doors()) {
      for (const raw of [body, `${"[".repeat(3000)}${"]".repeat(3000)}`]) {
        const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: raw });
        const text = await response.text();
        expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(400);
        if (raw === body) shape(JSON.parse(text) as Record<string, unknown>);
      }
    }
    expect(await server.prisma.checkoutSession.count()).toBe(before);
  });

  it("lets a body up to 64 levels through to the door's own rules (a tool input stops at 32)", async () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
    const within = await server.call("products.search", undefined, { key: admin, raw: `{"q":"sol","x":${nested(63)}}` });
    expectProblem(within, 400, "invalid_input");
    const beyond = await server.call("products.search", undefined, { key: admin, raw: `{"q":"sol","x":${nested(64)}}` });
    expectProblem(beyond, 400, "invalid_json");
    // Brackets inside strings are text, not nesting.
    expectOk(server, "products.search", await server.call("products.search", { q: `${"[{".repeat(80)}"\\` }, { key: admin }));
  });
});

describe("session routes", () => {
  it("apply the same check to their own bodies", async () => {
    const login = await fetch(`${server.url}/api/v1/session/login`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"email":"kunde${"\\u0000"}@example.dk"}` });
    expect(login.status).toBe(400);
    expect(await login.json()).toMatchObject({ code: "invalid_input", errors: [{ path: "email", message: expect.stringMatching(/NUL/) }] });
    const verify = await fetch(`${server.url}/api/v1/session/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"__proto__":{"x":1},"email":"a@b.dk","code":"123456"}` });
    expect(verify.status).toBe(400);
    expect(await verify.json()).toMatchObject({ code: "invalid_input", errors: [{ path: "__proto__", message: "The key __proto__ is not allowed." }] });
  });
});

describe("database data errors", () => {
  it("map to 400 invalid_input, not 422 has_dependents or 500", async () => {
    const prisma = server.prisma;
    const failures = await Promise.allSettled([
      prisma.order.findUnique({ where: { id: NUL } }),
      prisma.page.create({ data: { slug: "x-nul", title: "x", body: `a${NUL}b` } }),
      prisma.setting.create({ data: { section: "x-lone", value: { a: LONE } } }),
      prisma.$queryRaw`SELECT ${NUL}::text`,
      prisma.$queryRaw`SELECT 'abc'::int`,
    ]);
    for (const failure of failures) {
      expect(failure.status).toBe("rejected");
      const mapped = toToolError((failure as PromiseRejectedResult).reason);
      expect({ status: mapped.status, code: mapped.code }).toEqual({ status: 400, code: "invalid_input" });
    }
    const fk = await prisma.product.create({ data: { slug: "x-fk", name: "x", description: "x", priceDkk: 1n, stock: 1n, categoryId: "none" } }).catch((error: unknown) => error);
    expect(toToolError(fk)).toMatchObject({ status: 422, code: "has_dependents" });
  });
});
