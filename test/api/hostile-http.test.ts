// HTTP-level hostility: undecodable cookies, paths and bodies, oversized headers. Each gets a 4xx (a problem for the API,
// an HTML page for pages) or simply works, never a 500; and the payment page carries the same security headers as others.
import { describe, expect, it } from "vitest";
import { expectProblem } from "../support/expect.ts";
import { rpc } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

async function expectProblemResponse(response: Response, status: number): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ ok: false, status, type: expect.any(String), title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
  return body;
}

async function expectHtmlPage(response: Response, status: number): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  expect(await response.text()).toMatch(/^<!doctype html>/);
}

describe("a malformed session cookie", () => {
  it("counts as no cookie on anonymous tools, the MCP door and the session routes", async () => {
    for (const cookie of ["shop_session=%E0%A4%A", "shop_session=%", "shop_session=%00.abc", "other=1; shop_session=%ZZ"]) {
      const search = await server.call("products.search", { limit: 1 }, { cookie });
      expect(search.status, cookie).toBe(200);
      const listing = await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { headers: { cookie } });
      expect(listing.status, cookie).toBe(200);
      expect((listing.body.result as { tools: unknown[] }).tools).toHaveLength(server.runtime.registry.tools.filter((tool) => tool.anonymous).length);
      const session = await fetch(`${server.url}/api/v1/session`, { method: "POST", headers: { cookie } });
      expect(session.status, cookie).toBe(201);
    }
  });

  it("still leaves cart tools to a real session: the call is unauthorised, not an error", async () => {
    expectProblem(await server.call("cart.get_summary", {}, { cookie: "shop_session=%E0%A4%A" }), 401, "unauthorized");
  });
});

describe("undecodable requests", () => {
  it("answer 400 problems for a body that is not the gzip it claims and for an undecodable tool name", async () => {
    const gzip = await fetch(`${server.url}/api/v1/tools/products.search`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: '{"q":"not gzip"}',
    });
    expect((await expectProblemResponse(gzip, 400)).code).toBe("bad_request");
    const mcp = await fetch(`${server.url}/api/mcp`, { method: "POST", headers: { "content-encoding": "deflate" }, body: "plain" });
    await expectProblemResponse(mcp, 400);
    const unknownEncoding = await fetch(`${server.url}/api/v1/tools/products.search`, { method: "POST", headers: { "content-encoding": "zstd-nope" }, body: "{}" });
    await expectProblemResponse(unknownEncoding, 415);
    for (const path of ["/api/v1/tools/%E0%A4%A", "/api/v1/tools/%"]) {
      expect((await expectProblemResponse(await fetch(`${server.url}${path}`, { method: "POST", body: "{}" }), 400)).code).toBe("bad_request");
    }
  });

  it("answer HTML 400/404 pages on the public pages and the payment page, never the 500 page", async () => {
    await expectHtmlPage(await fetch(`${server.url}/info/%E0%A4%A`), 400);
    // A decodable slug that no page can have (NUL) is simply not found.
    await expectHtmlPage(await fetch(`${server.url}/info/%00`), 404);
    await expectHtmlPage(await fetch(`${server.url}/services/a%00b`), 404);
    await expectHtmlPage(await fetch(`${server.url}/services/%E0%A4%A`), 400);
    await expectHtmlPage(await fetch(`${server.url}/orders/%E0%A4%A/pay?token=x`), 400);
    await expectHtmlPage(await fetch(`${server.url}/orders/%00/pay?token=x`), 404);
    await expectHtmlPage(await fetch(`${server.url}/info/findes-ikke`), 404);
  });
});

describe("oversized headers", () => {
  it("answer 431 with a problem body instead of Node's bare status line", async () => {
    for (const size of [17 * 1024, 64 * 1024]) {
      const response = await fetch(`${server.url}/api/v1/tools/products.search`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${"x".repeat(size)}` },
        body: "{}",
      });
      expect((await expectProblemResponse(response, 431)).code).toBe("bad_request");
    }
    expect((await server.call("products.search", { limit: 1 })).status).toBe(200);
  });
});

describe("the payment page", () => {
  it("sends CSP, nosniff and Referrer-Policy like the other HTML pages, on the page and on its 404", async () => {
    const key = await server.key("orders:write");
    const created = await server.call("orders.create", {
      items: [{ productSlug: "gucci-oversize-bold-74", quantity: 1 }],
      email: "kunde@example.dk",
      shipping: { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "København K" },
    }, { key });
    expect(created.status).toBe(200);
    const link = new URL((created.body.result as { paymentUrl: string }).paymentUrl);
    // The page itself sends no referrer at all: its address carries the payment token.
    for (const [url, referrer] of [[`${server.url}${link.pathname}${link.search}`, "no-referrer"], [`${server.url}${link.pathname}?token=wrong`, "strict-origin-when-cross-origin"]]) {
      const response = await fetch(url!);
      expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe(referrer);
    }
  });
});
