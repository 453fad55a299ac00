// keys.list through real HTTP: every key, oldest first, with scopes and last use, never a secret or hash; by state.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["keys:read"] } });

type Key = { id: string; name: string; prefix: string; scopes: string[]; lastUsedAt: string | null; revokedAt: string | null };

describe("keys.list", () => {
  it("lists every key oldest first without secrets or hashes, the demo's revoked key among them", async () => {
    const used = await server.key("orders:read");
    await server.call("orders.list", { limit: 1 }, { key: used });
    const keys = expectOk<Key[]>(server, "keys.list", await server.call("keys.list", {}, { key }));
    expect(keys[0]).toMatchObject({ id: "demo-api-key-kasse", name: "Gammel kasseintegration", prefix: "shop_demo0000_…", revokedAt: expect.any(String) });
    const created = keys.map((entry) => Date.parse((entry as Key & { createdAt: string }).createdAt));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    const rows = await server.prisma.apiKey.findMany();
    const text = JSON.stringify(keys);
    for (const row of rows) expect(text).not.toContain(row.hash);
    expect(text).not.toContain(used.slice(14));
    await expect.poll(async () => {
      const again = expectOk<Key[]>(server, "keys.list", await server.call("keys.list", { state: "active" }, { key }));
      return again.find((entry) => used.startsWith(entry.prefix.slice(0, -1)))?.lastUsedAt;
    }).toEqual(expect.any(String));
  });

  it("filters by state", async () => {
    const active = expectOk<Key[]>(server, "keys.list", await server.call("keys.list", { state: "active" }, { key }));
    const revoked = expectOk<Key[]>(server, "keys.list", await server.call("keys.list", { state: "revoked" }, { key }));
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((entry) => entry.revokedAt === null)).toBe(true);
    expect(revoked.map((entry) => entry.id)).toEqual(["demo-api-key-kasse"]);
  });

  it("needs keys:read", async () => {
    await expectScopeMatrix(server, "keys.list", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "keys.list", key, [{ state: "all" }, { state: null }, { secret: true }]);
  });
});
