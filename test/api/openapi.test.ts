// The OpenAPI document: valid OpenAPI 3.1 (third-party validator) and generated exactly as SPEC.md item 7 says.
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { describeTool } from "../../src/tools/describe.ts";
import { SCOPES, SYSTEM_SCOPES } from "../../src/tools/scopes.ts";
import { useServer } from "../support/server.ts";

type Operation = Record<string, unknown> & { responses: Record<string, unknown>; operationId: string };
const { server } = useServer({ config: { publicBaseUrl: "https://shop.example.dk" } });
let doc: { openapi: string; info: Record<string, unknown>; servers: unknown[]; paths: Record<string, { post: Operation }>; components: Record<string, Record<string, unknown>>; [k: string]: unknown };

beforeAll(async () => {
  doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as typeof doc;
});

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has the info, server, license and scope list of SPEC.md", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect((doc.info.license as { name: string }).name).toBe("MIT");
    expect(doc.servers).toEqual([{ url: "https://shop.example.dk" }]);
    // SPEC.md's list (Authentication, item 4), plus the scopes of tools added since (keys.*, staff.*), which the
    // operations below name; products:read is accepted on keys but advertised nowhere.
    const spec = [
      "analytics:read", "audit:read", "audit:revert", "cart:write", "catalog:read", "categories:read", "categories:write", "customer:read",
      "discounts:read", "discounts:write", "features:read", "features:write", "marketing:write", "orders:read", "orders:write", "pages:read",
      "pages:write", "products:write", "settings:read", "settings:write",
    ];
    const supported = doc["x-service-scopes-supported"] as string[];
    expect(supported).toEqual(expect.arrayContaining(spec));
    expect(supported).toEqual(SCOPES.filter((scope) => scope !== "products:read"));
    // Every grantable scope a tool names is advertised; a system scope (payments:write, the payment webhook's) is on no key.
    expect(server.runtime.registry.tools.filter((tool) => !supported.includes(tool.scope)).map((tool) => tool.scope)).toEqual(["payments:write"]);
    expect(SYSTEM_SCOPES).toEqual(["payments:write"]);
    expect(SCOPES).toContain("products:read");
    expect(doc.components.securitySchemes!.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("has one operation per tool with operationId, scope and anonymous extensions and every response", () => {
    const tools = server.runtime.registry.tools;
    expect(Object.keys(doc.paths).length).toBe(tools.length);
    for (const tool of tools) {
      const op = doc.paths[`/api/v1/tools/${tool.name}`]!.post;
      expect(op.operationId).toBe(`invoke_${tool.name.replace(".", "_")}`);
      expect(op["x-service-required-scope"]).toBe(tool.scope);
      expect(op["x-service-anonymous-read"]).toBe(tool.anonymous);
      // SPEC.md's statuses on every operation, plus the other statuses (404, 409, 413) of failures the tool documents.
      const documented = [...new Set((tool.errors ?? []).map((failure) => String(failure.status)))];
      expect(Object.keys(op.responses).sort()).toEqual([...new Set(["200", "400", "401", "403", "422", "429", "500", ...documented])].sort().concat("default"));
      const ok = op.responses["200"] as { headers: Record<string, unknown> };
      expect(Object.keys(ok.headers).sort()).toEqual(["RateLimit", "RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset"]);
      expect(op.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
      if (!documented.includes("429")) expect(op.responses["429"]).toEqual({ $ref: "#/components/responses/RateLimited" });
      expect(op.responses["400"]).not.toEqual(op.responses["401"]);
    }
    expect(new Set(Object.values(doc.paths).map((p) => p.post.operationId)).size).toBe(tools.length);
  });

  it("lists each tool's documented problem codes under their status: in the description Swagger UI shows and as x-problem-codes", () => {
    type Documented = { description: string; "x-problem-codes": Array<{ code: string; when?: string }>; content: Record<string, unknown> };
    const checkout = doc.paths["/api/v1/tools/cart.checkout"]!.post.responses;
    const refused = checkout["422"] as Documented;
    expect(refused["x-problem-codes"]).toEqual(expect.arrayContaining([{ code: "cart_empty" }, { code: "invalid_pickup_point" }]));
    expect(refused.description).toMatch(/^A shop rule refuses the request .*\n\n- `cart_empty`\n/);
    expect(refused.content).toEqual({ "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } });
    expect(checkout["404"]).toMatchObject({ "x-problem-codes": [{ code: "not_found", when: "unknown gift card" }], description: expect.stringContaining("- `not_found`: unknown gift card") });
    // A documented 429 keeps the headers that say when to come back.
    const login = doc.paths["/api/v1/tools/user.request_login_code"]!.post.responses["429"] as Documented & { headers: Record<string, unknown> };
    expect(Object.keys(login.headers).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After"]);
    expect(login["x-problem-codes"]).toEqual([{ code: "rate_limited", when: expect.stringMatching(/codes per e-mail an hour$/) }]);
    // Every tool's documented failures, and nothing else, appear in its operation.
    for (const tool of server.runtime.registry.tools) {
      const responses = doc.paths[`/api/v1/tools/${tool.name}`]!.post.responses as Record<string, Partial<Documented>>;
      const listed = Object.entries(responses).flatMap(([status, response]) => (response["x-problem-codes"] ?? []).map((failure) => ({ status: Number(status), ...failure })));
      expect(listed, tool.name).toEqual(describeTool(tool).errors);
    }
  });

  it("declares 401 and 429 as their own response definitions", () => {
    const responses = doc.components.responses!;
    expect(responses.Unauthorized).toBeDefined();
    expect(responses.RateLimited).toBeDefined();
    expect((responses.RateLimited as { headers: Record<string, unknown> }).headers["Retry-After"]).toBeDefined();
  });
});
