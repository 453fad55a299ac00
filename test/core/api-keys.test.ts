// API keys: hashed at rest, shown once, scoped, `*` wildcard, revocable at once, last-used time recorded.
import { describe, expect, it } from "vitest";
import { createKey, hashKey, listKeys } from "../../src/tools/keys/key-secrets.ts";
import { expectProblem } from "../support/expect.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

describe("API keys", () => {
  it("are stored only as a hash and listed without the secret", async () => {
    const db = server.prisma;
    const { secret, key } = await createKey(db, "integration", ["catalog:read", "orders:read"]);
    expect(secret).toMatch(/^shop_[A-Za-z0-9]{8}_/);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toBe(hashKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(14));
    const listed = (await listKeys(db)).find((k) => k.id === key.id)!;
    expect(listed).toMatchObject({ name: "integration", scopes: ["catalog:read", "orders:read"], revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(secret.slice(14));
  });

  it("refuse unknown scopes and empty scope lists", async () => {
    const key = await server.key("keys:write");
    const unknown = await server.call("keys.create", { name: "x", scopes: ["orders:readd"] }, { key });
    expectProblem(unknown, 400, "invalid_input");
    expect(unknown.body.errors).toEqual([{ path: "scopes.0", message: 'Unknown scope "orders:readd"' }]);
    expectProblem(await server.call("keys.create", { name: "x", scopes: [] }, { key }), 400, "invalid_input");
  });

  it("grant only their scopes, `*` grants every scope, revocation takes effect on the next call", async () => {
    const pagesOnly = await server.key("pages:read");
    expectProblem(await server.call("audit.list", {}, { key: pagesOnly }), server.runtime.registry.get("audit.list") ? 403 : 404);
    const star = await server.key("*");
    expect((await server.call("products.search", {}, { key: star })).status).toBe(200);
    const row = await server.prisma.apiKey.findFirstOrThrow({ where: { scopes: { has: "*" } }, orderBy: { createdAt: "desc" } });
    await server.revokeKey(row.id);
    expectProblem(await server.call("products.search", {}, { key: star }), 401, "unauthorized");
  });

  it("record when they were last used", async () => {
    const key = await server.key("catalog:read");
    const db = server.prisma;
    const row = await db.apiKey.findFirstOrThrow({ where: { hash: hashKey(key) } });
    expect(row.lastUsedAt).toBeNull();
    await server.call("products.search", {}, { key });
    await expect.poll(async () => (await db.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).not.toBeNull();
  });
});
