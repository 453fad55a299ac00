// keys.create through real HTTP: a key with the chosen scopes, its secret shown once and usable at once, audited without
// the secret; never a scope the caller lacks; offered to the admin assistant only with keys:write, never to the shop's.
import { describe, expect, it } from "vitest";
import { PROFILES } from "../../../src/assistants/assistant-profiles.ts";
import { offeredTools } from "../../../src/assistants/tools.ts";
import { wireName } from "../../../src/tools/registry.ts";
import { hashKey } from "../../../src/tools/keys/key-secrets.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit, toolOf } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["keys:write", "orders:read", "catalog:read"] } });

const db = () => server.prisma;
type Created = { secret: string; key: { id: string; name: string; prefix: string; scopes: string[]; lastUsedAt: string | null; revokedAt: string | null } };

describe("keys.create", () => {
  it("creates a key that works at once with exactly its scopes, stores only its hash and audits it without the secret", async () => {
    const created = expectOk<Created>(server, "keys.create", await server.call("keys.create", { name: "  ERP-synk ", scopes: ["orders:read", "orders:read"] }, { key }));
    expect(created.secret).toMatch(/^shop_[A-Za-z0-9]{8}_[\w-]{20,}$/);
    expect(created.key).toMatchObject({ name: "ERP-synk", scopes: ["orders:read"], prefix: `${created.secret.slice(0, 14)}…`, lastUsedAt: null, revokedAt: null });

    expect((await server.call("orders.list", { limit: 1 }, { key: created.secret })).status).toBe(200);
    expectProblem(await server.call("analytics.summary", {}, { key: created.secret }), 403, "forbidden");

    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.key.id } });
    expect(row.hash).toBe(hashKey(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(14));
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "keys.create", subjectType: "apiKey", subjectId: created.key.id, door: "rest", before: null, after: { name: "ERP-synk", scopes: ["orders:read"] } });
    expect(JSON.stringify(entry)).not.toContain(created.secret.slice(14));
    expect(JSON.stringify(entry)).not.toContain(row.hash);
  });

  it("cannot grant a scope the caller does not hold, nor * without *; nothing is written", async () => {
    const before = [await db().apiKey.count(), await auditCount(server)];
    for (const scopes of [["orders:write"], ["orders:read", "products:write"], ["*"]]) {
      const refused = await server.call("keys.create", { name: "for meget", scopes }, { key });
      expectProblem(refused, 403, "forbidden");
      expect(String(refused.body.detail)).toContain("scopes you do not have yourself");
    }
    expect([await db().apiKey.count(), await auditCount(server)]).toEqual(before);
    const star = await server.key("*");
    const admin = expectOk<Created>(server, "keys.create", await server.call("keys.create", { name: "Administrator", scopes: ["*"] }, { key: star }));
    expect((await server.call("analytics.summary", {}, { key: admin.secret })).status).toBe(200);
  });

  it("is never offered to an assistant (a chat is stored, its secret must not be); keys.revoke is, with approval", () => {
    const offered = (assistant: "admin" | "storefront", name: string, scopes: string[]) =>
      offeredTools(server.runtime.executor, PROFILES[assistant], { kind: "staff", actor: "staff:x", scopes: new Set(scopes) }).has(wireName(name));
    expect(offered("admin", "keys.create", ["*"])).toBe(false);
    expect(offered("admin", "keys.revoke", ["keys:write"])).toBe(true);
    expect(offered("admin", "keys.revoke", ["keys:read", "orders:write"])).toBe(false);
    expect(PROFILES.admin.needsApproval(toolOf(server, "keys.revoke"))).toBe(true);
    expect(PROFILES.admin.needsApproval(toolOf(server, "keys.list"))).toBe(false);
    const storefront = offeredTools(server.runtime.executor, PROFILES.storefront, { kind: "key", actor: "key:x", scopes: new Set(["*"]) });
    expect([...storefront.values()].filter((offer) => /^(keys|staff)\./.test(offer.name))).toEqual([]);
  });

  it("limits a key to toolsets: it calls only their tools (403 problem elsewhere, cached catalogue reads too)", async () => {
    expect((await server.call("products.search", { q: "aviator" })).status).toBe(200);
    const created = expectOk<Created & { key: { toolsets?: string[] } }>(
      server,
      "keys.create",
      await server.call("keys.create", { name: "Ordrebot", scopes: ["orders:read", "catalog:read"], toolsets: ["orders", "categories", "orders"] }, { key }),
    );
    expect(created.key.toolsets).toEqual(["categories", "orders"]);
    expect((await server.call("orders.list", { limit: 1 }, { key: created.secret })).status).toBe(200);
    expect((await server.call("categories.list", {}, { key: created.secret })).status).toBe(200);
    const outside = await server.call("products.search", { q: "aviator" }, { key: created.secret });
    expectProblem(outside, 403, "forbidden");
    expect(String(outside.body.detail)).toContain("outside this caller's toolsets (categories, orders)");
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.key.id } });
    expect(row.toolsets).toEqual(["categories", "orders"]);
    expect(await lastAudit(server)).toMatchObject({ tool: "keys.create", after: { toolsets: ["categories", "orders"] } });
    const listed = expectOk<Array<{ id: string; toolsets?: string[] }>>(server, "keys.list", await server.call("keys.list", {}, { key: await server.key("keys:read") }));
    expect(listed.find((item) => item.id === created.key.id)?.toolsets).toEqual(["categories", "orders"]);
    expect(listed.find((item) => item.id !== created.key.id)).not.toHaveProperty("toolsets");

    // A key limited to toolsets makes keys within them only.
    const keyMaker = expectOk<Created>(server, "keys.create", await server.call("keys.create", { name: "Nøglemager", scopes: ["keys:write", "orders:read"], toolsets: ["keys", "orders"] }, { key }));
    expect((await server.call("keys.create", { name: "smal", scopes: ["orders:read"], toolsets: ["orders"] }, { key: keyMaker.secret })).status).toBe(200);
    for (const wider of [{}, { toolsets: [] }, { toolsets: ["orders", "returns"] }]) {
      const refused = await server.call("keys.create", { name: "bred", scopes: ["orders:read"], ...wider }, { key: keyMaker.secret });
      expectProblem(refused, 403, "forbidden");
    }
  });

  it("needs keys:write", async () => {
    await expectScopeMatrix(server, "keys.create", { name: "Nøglerotation", scopes: ["keys:write"] });
  });

  it("rejects bad input and creates nothing", async () => {
    await expectRejected(
      server,
      "keys.create",
      key,
      [
        {},
        { name: "x" },
        { scopes: ["orders:read"] },
        { name: " ", scopes: ["orders:read"] },
        { name: "x".repeat(101), scopes: ["orders:read"] },
        { name: "x", scopes: [] },
        { name: "x", scopes: "orders:read" },
        { name: "x", scopes: ["orders:readd"] },
        { name: "x", scopes: ["orders:read"], hash: "x" },
        { name: "x", scopes: ["orders:read"], toolsets: ["ordrer"] },
        { name: "x", scopes: ["orders:read"], toolsets: "orders" },
        { name: "x", scopes: ["orders:read"], toolsets: ["orders.list"] },
      ],
      async () => [await db().apiKey.count(), await auditCount(server)],
    );
  });
});
