// staff.create through real HTTP: a staff user who can sign in at once, with a given or a generated password (shown
// once), audited without either, or invited by e-mail to choose one; never a scope the caller lacks; 409 for a taken
// e-mail; assistant offering.
import { describe, expect, it } from "vitest";
import { PROFILES } from "../../../src/assistants/assistant-profiles.ts";
import { offeredTools } from "../../../src/assistants/tools.ts";
import { wireName } from "../../../src/tools/registry.ts";
import { AdminClient } from "../../support/admin.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit, toolOf } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { mailTo } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["staff:write", "orders:read", "orders:write"] } });

const db = () => server.prisma;
type Created = { user: { id: string; email: string; scopes: string[]; lastLoginAt: string | null }; generatedPassword: string | null };

async function signsIn(email: string, password: string): Promise<boolean> {
  return (await new AdminClient(server).signIn(email, password)).status === 303;
}

describe("staff.create", () => {
  it("creates a user who signs in with the given password, audited without password or hash", async () => {
    const created = expectOk<Created>(server, "staff.create", await server.call("staff.create", { email: " Lager@Nordlys.dk ", password: "kaffe-og-kage-1", scopes: ["orders:read", "orders:write"] }, { key }));
    expect(created).toEqual({ user: { id: expect.any(String), email: "lager@nordlys.dk", scopes: ["orders:read", "orders:write"], createdAt: expect.any(String), lastLoginAt: null }, generatedPassword: null });
    expect(await signsIn("lager@nordlys.dk", "kaffe-og-kage-1")).toBe(true);

    const row = await db().adminUser.findUniqueOrThrow({ where: { id: created.user.id } });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "staff.create", subjectType: "adminUser", subjectId: row.id, before: null, after: { email: "lager@nordlys.dk", scopes: ["orders:read", "orders:write"] } });
    const written = JSON.stringify(await db().auditEntry.findMany({ where: { subjectType: "adminUser" } }));
    expect(written).not.toContain("kaffe-og-kage-1");
    expect(written).not.toContain(row.passwordHash);
  });

  it("generates a strong password when none is given, returned this once", async () => {
    const created = expectOk<Created>(server, "staff.create", await server.call("staff.create", { email: "vikar@nordlys.dk", scopes: ["orders:read"] }, { key }));
    expect(created.generatedPassword).toMatch(/^[\w-]{24}$/);
    expect(await signsIn("vikar@nordlys.dk", created.generatedPassword!)).toBe(true);
    expect(JSON.stringify(await lastAudit(server))).not.toContain(created.generatedPassword);
  });

  it("invites by e-mail: no password until the user chooses one through the link, valid for 7 days", async () => {
    const mail = captureMail(server);
    const created = expectOk<Created>(server, "staff.create", await server.call("staff.create", { email: "Inviteret@Nordlys.dk", scopes: ["orders:read"], invite: true }, { key }));
    expect(created).toEqual({ user: { id: expect.any(String), email: "inviteret@nordlys.dk", scopes: ["orders:read"], createdAt: expect.any(String), lastLoginAt: null }, generatedPassword: null });
    const row = await db().adminUser.findUniqueOrThrow({ where: { id: created.user.id }, include: { passwordTokens: true } });
    expect(row.passwordHash).toBeNull();
    expect(row.passwordTokens).toMatchObject([{ purpose: "invite", usedAt: null }]);
    expect(row.passwordTokens[0]!.expiresAt.getTime() - row.passwordTokens[0]!.createdAt.getTime()).toBe(7 * 24 * 3_600_000);
    expect(await lastAudit(server)).toMatchObject({ tool: "staff.create", subjectId: row.id, note: "Invitation e-mailed." });

    const sent = await mailTo(mail, "inviteret@nordlys.dk");
    expect(sent.subject).toBe("Du er inviteret til administrationen af Nordlys Optik");
    expect(sent.text).toContain("virker i 7 dage");
    expect(sent.text).toMatch(new RegExp(`${server.runtime.config.publicBaseUrl}/admin/password\\?token=[\\w-]{43}`));
    expect(await signsIn("inviteret@nordlys.dk", "hvad som helst 123")).toBe(false);
  });

  it("refuses invite together with a password, and an invitation beyond the caller's scopes, e-mailing nobody", async () => {
    const mail = captureMail(server);
    const before = [await db().adminUser.count(), await auditCount(server)];
    expectProblem(await server.call("staff.create", { email: "begge@nordlys.dk", password: "langt nok kodeord", scopes: ["orders:read"], invite: true }, { key }), 400, "invalid_input");
    expectProblem(await server.call("staff.create", { email: "for-meget@nordlys.dk", scopes: ["settings:write"], invite: true }, { key }), 403, "forbidden");
    expect([await db().adminUser.count(), await auditCount(server)]).toEqual(before);
    await server.runtime.collaborators.background.idle();
    expect(mail.sent).toEqual([]);
  });

  it("answers 409 for an e-mail address that has a user, in any letter case", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("staff.create", { email: "LAGER@nordlys.dk", scopes: ["orders:read"] }, { key }), 409, "conflict");
    expect(await auditCount(server)).toBe(before);
  });

  it("cannot grant a scope the caller does not hold, nor * without *; nothing is written", async () => {
    const before = [await db().adminUser.count(), await auditCount(server)];
    for (const scopes of [["settings:write"], ["orders:read", "staff:read"], ["*"]]) {
      expectProblem(await server.call("staff.create", { email: "for-meget@nordlys.dk", scopes }, { key }), 403, "forbidden");
    }
    expect([await db().adminUser.count(), await auditCount(server)]).toEqual(before);
  });

  it("is never offered to an assistant (a password must not be stored in a chat); staff.set_scopes is, with approval", () => {
    const offered = (name: string, scopes: string[]) => offeredTools(server.runtime.executor, PROFILES.admin, { kind: "staff", actor: "staff:x", scopes: new Set(scopes) }).has(wireName(name));
    expect(offered("staff.create", ["*"])).toBe(false);
    expect(offered("staff.reset_password", ["*"])).toBe(false);
    expect(offered("staff.set_scopes", ["staff:write"])).toBe(true);
    expect(offered("staff.set_scopes", ["staff:read", "keys:write"])).toBe(false);
    expect(PROFILES.admin.needsApproval(toolOf(server, "staff.set_scopes"))).toBe(true);
    expect(PROFILES.storefront.offers(toolOf(server, "staff.create"))).toBe(false);
  });

  it("needs staff:write", async () => {
    await expectScopeMatrix(server, "staff.create", { email: "matrix@nordlys.dk", scopes: ["staff:write"] });
    expect(await db().adminUser.findUnique({ where: { email: "matrix@nordlys.dk" } })).not.toBeNull();
  });

  it("rejects bad input and creates nothing", async () => {
    await expectRejected(
      server,
      "staff.create",
      key,
      [
        {},
        { email: "ny@nordlys.dk" },
        { scopes: ["orders:read"] },
        { email: "not an address", scopes: ["orders:read"] },
        { email: "ny@nordlys.dk", scopes: [] },
        { email: "ny@nordlys.dk", scopes: ["nope:read"] },
        { email: "ny@nordlys.dk", password: "short", scopes: ["orders:read"] },
        { email: "ny@nordlys.dk", password: "x".repeat(201), scopes: ["orders:read"] },
        { email: "ny@nordlys.dk", scopes: ["orders:read"], passwordHash: "scrypt$x$y" },
        { email: "ny@nordlys.dk", scopes: ["orders:read"], invite: "ja" },
      ],
      async () => [await db().adminUser.count(), await auditCount(server)],
    );
  });
});
