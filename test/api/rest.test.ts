// The REST door itself: envelope, body rules, unknown tools, oversize bodies, problems, catalogue endpoint, health.
import { describe, expect, it } from "vitest";
import { expectProblem } from "../support/expect.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

describe("REST door", () => {
  it("answers {ok: true, result} with the five rate-limit headers", async () => {
    const response = await server.call("categories.list", {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body.ok).toBe(true);
    for (const name of ["RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
      expect(response.headers.get(name), name).toMatch(/\S/);
    }
    expect(response.headers.get("etag")).toBeNull();
  });

  it("requires a JSON object body", async () => {
    for (const raw of ["", "[]", "[{}]", "42", "\"x\"", "null", "{not json", "true"]) {
      const response = await server.call("products.search", undefined, { raw });
      expectProblem(response, 400);
    }
  });

  it("answers 404 for an unknown tool and 413 for an oversize body", async () => {
    expectProblem(await server.call("products.nope", {}), 404, "not_found");
    const big = JSON.stringify({ q: "x".repeat(300 * 1024) });
    expectProblem(await server.call("products.search", undefined, { raw: big }), 413, "payload_too_large");
  });

  it("lists each input path that violates the schema", async () => {
    const response = await server.call("products.search", { limit: "ten", extra: 1 });
    expectProblem(response, 400, "invalid_input");
    const paths = (response.body.errors as Array<{ path: string }>).map((e) => e.path).sort();
    expect(paths).toEqual(["extra", "limit"]);
  });

  it("challenges a malformed or unknown key with 401 and WWW-Authenticate, even on anonymous tools", async () => {
    for (const authorization of ["Bearer nope", "Basic abc", "Bearer shop_abcdefgh_xxxxxxxxxxxxxxxxxxxxxxxxxxxx"]) {
      const response = await server.call("products.search", {}, { headers: { authorization } });
      expectProblem(response, 401, "unauthorized");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("never leaks internals on unknown /api paths", async () => {
    const response = await fetch(`${server.url}/api/v1/nothing`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/problem\+json/);
  });

  it("serves the live catalogue of every registered tool with schemas, flags and documented failures", async () => {
    const response = await fetch(`${server.url}/api/v1/tools`);
    const body = (await response.json()) as { ok: boolean; result: { count: number; tools: Array<Record<string, unknown>> } };
    expect(body.ok).toBe(true);
    expect(body.result.count).toBe(server.runtime.registry.tools.length);
    for (const tool of body.result.tools) {
      expect(Object.keys(tool).sort()).toEqual(["annotations", "anonymous", "audited", "description", "errors", "inputSchema", "name", "outputSchema", "scope"]);
      expect((tool.inputSchema as { type: string }).type).toBe("object");
      // A failure list is data beside the description, no longer prose inside it.
      expect(tool.description as string, tool.name as string).not.toMatch(/\b(400|403|404|409|413|422|429)\b/);
    }
    const checkout = body.result.tools.find((tool) => tool.name === "cart.checkout")!;
    expect(checkout.errors).toEqual(expect.arrayContaining([{ status: 422, code: "cart_empty" }, { status: 404, code: "not_found", when: "unknown gift card" }]));
    // Listed by status: a client can group them as OpenAPI does.
    const statuses = (checkout.errors as Array<{ status: number }>).map((failure) => failure.status);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
    expect(body.result.tools.find((tool) => tool.name === "categories.list")!.errors).toEqual([]);
    expect(body.result.tools.filter((t) => t.anonymous).map((t) => t.name).sort()).toEqual(["categories.list", "checkout.cancel", "checkout.complete", "checkout.create", "checkout.get", "checkout.get_order", "checkout.update", "giftcards.get", "products.get", "products.get_safety", "products.lookup", "products.search", "returns.policy", "returns.withdraw", "staff.request_password_reset", "staff.set_password", "support.create_ticket"]);
  });

  it("answers health and readiness probes", async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { ok: boolean }).ok).toBe(true);
  });
});
