// keys.revoke through real HTTP: the key stops working at once, audited; revoking again changes nothing; never a key
// with scopes the caller lacks; 404 for an unknown id.
import { describe, expect, it } from "vitest";
import { findActiveKey } from "../../../src/tools/keys/key-secrets.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["keys:write", "orders:read"] } });

const db = () => server.prisma;
const idOf = async (secret: string) => (await findActiveKey(db(), secret))!.id;

describe("keys.revoke", () => {
  it("revokes a key, which fails its very next call, and audits the change", async () => {
    const victim = await server.key("orders:read");
    const id = await idOf(victim);
    expect((await server.call("orders.list", { limit: 1 }, { key: victim })).status).toBe(200);
    const revoked = expectOk<{ id: string; revokedAt: string }>(server, "keys.revoke", await server.call("keys.revoke", { id }, { key }));
    expect(revoked).toMatchObject({ id, revokedAt: expect.any(String) });
    expectProblem(await server.call("orders.list", { limit: 1 }, { key: victim }), 401, "unauthorized");
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "keys.revoke", subjectType: "apiKey", subjectId: id, before: { id, revokedAt: null }, after: { id, revokedAt: revoked.revokedAt } });

    const before = await auditCount(server);
    expect(expectOk(server, "keys.revoke", await server.call("keys.revoke", { id }, { key }))).toEqual(revoked);
    expect(await auditCount(server)).toBe(before);
  });

  it("refuses a key with scopes the caller lacks, which keeps working", async () => {
    const strong = await server.key("orders:read", "orders:write");
    const refused = await server.call("keys.revoke", { id: await idOf(strong) }, { key });
    expectProblem(refused, 403, "forbidden");
    expect(String(refused.body.detail)).toContain("orders:write");
    expect((await server.call("orders.list", { limit: 1 }, { key: strong })).status).toBe(200);
  });

  it("answers 404 for an unknown id", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("keys.revoke", { id: "no-such-key" }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs keys:write", async () => {
    const target = await server.key("keys:write");
    await expectScopeMatrix(server, "keys.revoke", { id: await idOf(target) });
    expect(await findActiveKey(db(), target)).toBeNull();
  });

  it("rejects bad input and revokes nothing", async () => {
    const target = await server.key("orders:read");
    await expectRejected(
      server,
      "keys.revoke",
      key,
      [{}, { id: "" }, { id: 42 }, { id: "x".repeat(101) }, { id: await idOf(target), confirm: true }],
      async () => [await db().apiKey.count({ where: { revokedAt: null } }), await auditCount(server)],
    );
  });
});
