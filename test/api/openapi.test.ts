// The OpenAPI document: valid OpenAPI 3.1 (third-party validator) and generated exactly as SPEC.md item 7 says.
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
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
      expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "422", "429", "500", "default"]);
      const ok = op.responses["200"] as { headers: Record<string, unknown> };
      expect(Object.keys(ok.headers).sort()).toEqual(["RateLimit", "RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset"]);
      expect(op.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
      expect(op.responses["429"]).toEqual({ $ref: "#/components/responses/RateLimited" });
      expect(op.responses["400"]).not.toEqual(op.responses["401"]);
    }
    expect(new Set(Object.values(doc.paths).map((p) => p.post.operationId)).size).toBe(tools.length);
  });

  it("declares 401 and 429 as their own response definitions", () => {
    const responses = doc.components.responses!;
    expect(responses.Unauthorized).toBeDefined();
    expect(responses.RateLimited).toBeDefined();
    expect((responses.RateLimited as { headers: Record<string, unknown> }).headers["Retry-After"]).toBeDefined();
  });
});
