// staff.delete through real HTTP: the user and their sessions go, audited; not oneself, not the last user with "*",
// never a user with scopes the caller lacks; confirm must be true; 404 for an unknown e-mail.
import { describe, expect, it } from "vitest";
import { signedInClient, staffUser } from "../../support/admin.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["staff:write", "orders:read"] } });

const db = () => server.prisma;

describe("staff.delete", () => {
  it("deletes the user, whose session ends at once, and audits the deleted user", async () => {
    const clerk = await signedInClient(server, "vikar@nordlys.dk", ["orders:read"]);
    const row = await db().adminUser.findUniqueOrThrow({ where: { email: "vikar@nordlys.dk" } });
    expect(expectOk(server, "staff.delete", await server.call("staff.delete", { email: "Vikar@nordlys.dk", confirm: true }, { key }))).toEqual({ ok: true, email: "vikar@nordlys.dk" });
    expect(await db().adminUser.findUnique({ where: { id: row.id } })).toBeNull();
    expect((await clerk.get("/admin/orders")).status).toBe(303);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "staff.delete", subjectType: "adminUser", subjectId: row.id, before: { email: "vikar@nordlys.dk", scopes: ["orders:read"] }, after: null });
    expect(JSON.stringify(entry)).not.toContain(row.passwordHash);
  });

  it("refuses a user with scopes the caller lacks, the caller's own user and the last user with \"*\"", async () => {
    await staffUser(server, "chef@nordlys.dk", ["orders:read", "orders:write"]);
    expectProblem(await server.call("staff.delete", { email: "chef@nordlys.dk", confirm: true }, { key }), 403, "forbidden");

    const owner = await signedInClient(server, "ejer@nordlys.dk", ["*"]);
    const caller = (await server.runtime.staff.signedIn(owner.cookieHeader()))!.caller;
    const deleteAs = (email: string) => server.runtime.executor.invoke({ name: "staff.delete", input: { email, confirm: true }, caller, door: "admin" });
    await expect(deleteAs("ejer@nordlys.dk")).rejects.toMatchObject({ status: 422, code: "own_account" });

    const star = await server.key("*");
    expectProblem(await server.call("staff.delete", { email: "ejer@nordlys.dk", confirm: true }, { key: star }), 422, "last_owner");
    expect(await db().adminUser.findUnique({ where: { email: "ejer@nordlys.dk" } })).not.toBeNull();
    await staffUser(server, "medejer@nordlys.dk", ["*"]);
    await expect(deleteAs("medejer@nordlys.dk")).resolves.toEqual({ ok: true, email: "medejer@nordlys.dk" });
  });

  it("answers 404 for an unknown e-mail", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("staff.delete", { email: "ingen@nordlys.dk", confirm: true }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(before);
  });

  it("needs staff:write", async () => {
    await staffUser(server, "matrix@nordlys.dk", ["staff:write"]);
    await expectScopeMatrix(server, "staff.delete", { email: "matrix@nordlys.dk", confirm: true });
    expect(await db().adminUser.findUnique({ where: { email: "matrix@nordlys.dk" } })).toBeNull();
  });

  it("rejects bad input and deletes nothing", async () => {
    await staffUser(server, "bliver@nordlys.dk", ["orders:read"]);
    await expectRejected(
      server,
      "staff.delete",
      key,
      [{}, { email: "bliver@nordlys.dk" }, { email: "bliver@nordlys.dk", confirm: false }, { email: "bliver@nordlys.dk", confirm: "true" }, { confirm: true }, { email: "bliver@nordlys.dk", confirm: true, x: 1 }],
      async () => [await db().adminUser.count(), await auditCount(server)],
    );
  });
});
