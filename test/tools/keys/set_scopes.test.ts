// keys.set_scopes through real HTTP: the key acts with its new scopes from its next call, audited; never beyond the
// caller's scopes, nor on a key with scopes the caller lacks; 404 for an unknown id.
import { describe, expect, it } from "vitest";
import { findActiveKey } from "../../../src/tools/keys/key-secrets.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["keys:write", "orders:read", "catalog:read"] } });

const db = () => server.prisma;
const idOf = async (secret: string) => (await findActiveKey(db(), secret))!.id;

describe("keys.set_scopes", () => {
  it("narrows and widens a key, which acts with its new scopes from its next call, and audits each change", async () => {
    const target = await server.key("orders:read", "catalog:read");
    const id = await idOf(target);
    expect((await server.call("orders.list", { limit: 1 }, { key: target })).status).toBe(200);

    const narrowed = expectOk(server, "keys.set_scopes", await server.call("keys.set_scopes", { id, scopes: ["catalog:read"] }, { key }));
    expect(narrowed).toMatchObject({ id, scopes: ["catalog:read"], revokedAt: null });
    expectProblem(await server.call("orders.list", { limit: 1 }, { key: target }), 403, "forbidden");
    expect(await lastAudit(server)).toMatchObject({
      tool: "keys.set_scopes",
      subjectType: "apiKey",
      subjectId: id,
      before: { scopes: ["orders:read", "catalog:read"] },
      after: { scopes: ["catalog:read"] },
    });

    expectOk(server, "keys.set_scopes", await server.call("keys.set_scopes", { id, scopes: ["orders:read"] }, { key }));
    expect((await server.call("orders.list", { limit: 1 }, { key: target })).status).toBe(200);

    const before = await auditCount(server);
    expectOk(server, "keys.set_scopes", await server.call("keys.set_scopes", { id, scopes: ["orders:read", "orders:read"] }, { key }));
    expect(await auditCount(server)).toBe(before);
  });

  it("cannot grant a scope the caller lacks, nor change a key that has one; nothing changes", async () => {
    const target = await server.key("orders:read");
    const strong = await server.key("orders:read", "orders:write");
    const before = await auditCount(server);
    for (const [id, scopes] of [
      [await idOf(target), ["orders:write"]],
      [await idOf(target), ["*"]],
      [await idOf(strong), ["orders:read"]],
    ] as const) {
      expectProblem(await server.call("keys.set_scopes", { id, scopes }, { key }), 403, "forbidden");
    }
    expect((await findActiveKey(db(), target))!.scopes).toEqual(["orders:read"]);
    expect((await findActiveKey(db(), strong))!.scopes).toEqual(["orders:read", "orders:write"]);
    expect(await auditCount(server)).toBe(before);
  });

  it("answers 404 for an unknown id", async () => {
    expectProblem(await server.call("keys.set_scopes", { id: "no-such-key", scopes: ["orders:read"] }, { key }), 404, "not_found");
  });

  it("needs keys:write", async () => {
    const target = await server.key("keys:write");
    await expectScopeMatrix(server, "keys.set_scopes", { id: await idOf(target), scopes: ["keys:write"] });
  });

  it("rejects bad input and changes nothing", async () => {
    const id = await idOf(await server.key("orders:read"));
    await expectRejected(
      server,
      "keys.set_scopes",
      key,
      [{}, { id }, { scopes: ["orders:read"] }, { id, scopes: [] }, { id, scopes: ["nope:read"] }, { id, scopes: "orders:read" }, { id: "", scopes: ["orders:read"] }, { id, scopes: ["orders:read"], name: "x" }],
      async () => [JSON.stringify(await db().apiKey.findMany({ select: { id: true, scopes: true }, orderBy: { id: "asc" } })), await auditCount(server)],
    );
  });
});
