// keys.list_grants and keys.revoke_grant (internal): the OAuth grants the admin's "Forbundne apps" lists and revokes.
// The door that uses them (/admin/apps after a real authorization) is covered in test/api/mcp-oauth.test.ts; here the
// executor's refusals: scope, unknown grant, another user's grant beyond the caller's scopes, bad input.
import { describe, expect, it } from "vitest";
import { ToolError } from "../../../src/core/errors.ts";
import type { Caller } from "../../../src/tools/context.ts";
import listGrants from "../../../src/tools/keys/list_grants.ts";
import revokeGrant from "../../../src/tools/keys/revoke_grant.ts";
import { OAuthModel } from "../../../src/tools/keys/oauth-store.ts";
import { staffUser } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
const staff = (id: string, ...scopes: string[]): { caller: Caller; door: "admin" } => ({ caller: { kind: "staff", actor: `staff:${id}`, staffId: id, scopes: new Set(scopes) }, door: "admin" });

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => null, (failure: unknown) => failure);
  if (!(error instanceof ToolError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

async function grant(id: string, accountId: string, scope: string) {
  const payload = { accountId, clientId: "https://app.example/client.json", kind: "Grant", jti: id, resources: { [`${server.url}/api/mcp`]: scope } };
  await server.prisma.oAuthRecord.create({ data: { kind: "Grant", id, payload } });
  await server.prisma.oAuthRecord.create({ data: { kind: "AccessToken", id: `${id}-token`, grantId: id, payload: { grantId: id } } });
}

describe("keys.list_grants and keys.revoke_grant", () => {
  it("list every grant with its user and scopes, and revoke one with its tokens, audited", async () => {
    const owner = await staffUser(server, "grants-owner@nordlys.test", ["*"]);
    await grant("grant-a", owner.id, "orders:read catalog:read");
    const listed = await server.runtime.executor.call(listGrants, {}, staff(owner.id, "keys:read"));
    expect(listed.find((row) => row.id === "grant-a")).toMatchObject({ staffId: owner.id, staffEmail: "grants-owner@nordlys.test", scopes: ["catalog:read", "orders:read"], lastUsedAt: null });
    expect(await server.runtime.executor.call(revokeGrant, { id: "grant-a" }, staff(owner.id, "keys:write"))).toEqual({ revoked: true });
    expect(await server.prisma.oAuthRecord.count({ where: { OR: [{ id: "grant-a" }, { grantId: "grant-a" }] } })).toBe(0);
    const entry = await server.prisma.auditEntry.findFirstOrThrow({ where: { tool: "keys.revoke_grant" }, orderBy: { createdAt: "desc" } });
    expect(entry).toMatchObject({ subjectType: "oauthGrant", subjectId: "grant-a", actor: `staff:${owner.id}`, after: null });
  });

  it("refuse without the scope, an unknown grant, another user's grant beyond the caller's scopes, and bad input", async () => {
    const other = await staffUser(server, "grants-other@nordlys.test", ["*"]);
    await grant("grant-b", other.id, "orders:write");
    expect((await refusal(server.runtime.executor.call(listGrants, {}, staff("x", "orders:read")))).status).toBe(403);
    expect((await refusal(server.runtime.executor.call(revokeGrant, { id: "grant-b" }, staff("x", "keys:read")))).status).toBe(403);
    expect((await refusal(server.runtime.executor.call(revokeGrant, { id: "no-such-grant" }, staff("x", "keys:write")))).status).toBe(404);
    expect((await refusal(server.runtime.executor.call(revokeGrant, { id: "grant-b" }, staff("x", "keys:write")))).status).toBe(403);
    expect((await refusal(server.runtime.executor.call(revokeGrant, { id: "" }, staff("x", "keys:write")))).status).toBe(400);
    expect(await server.prisma.oAuthRecord.count({ where: { id: "grant-b" } })).toBe(1);
    // A user with the grant's scopes may end it.
    expect(await server.runtime.executor.call(revokeGrant, { id: "grant-b" }, staff("x", "keys:write", "orders:write"))).toEqual({ revoked: true });
  });
});

describe("OAuth records", () => {
  it("are deleted once expired, by a write at most hourly; live and unexpiring records stay", async () => {
    const start = Date.now() + 86_400_000;
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    let now = at(0);
    const model = new OAuthModel(server.prisma, "AuthorizationCode", () => now);
    await model.upsert("code-old", { kind: "AuthorizationCode" }, 60);
    await model.upsert("code-live", { kind: "AuthorizationCode" }, 7200);
    await server.prisma.oAuthRecord.create({ data: { kind: "Client", id: "prune-client", payload: {} } });
    now = at(30);
    await model.upsert("code-new", { kind: "AuthorizationCode" }, 60);
    expect(await server.prisma.oAuthRecord.count({ where: { id: "code-old" } }), "not due yet").toBe(1);
    now = at(61);
    await model.upsert("code-later", { kind: "AuthorizationCode" }, 60);
    const left = (await server.prisma.oAuthRecord.findMany({ where: { OR: [{ id: { startsWith: "code-" } }, { id: "prune-client" }] } })).map((row) => row.id).sort();
    expect(left).toEqual(["code-later", "code-live", "prune-client"]);
  });
});
