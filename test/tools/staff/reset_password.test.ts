// staff.reset_password through real HTTP: the new (or a generated) password works, the old one does not, every session
// of the user ends; or a reset link is e-mailed and nothing changes until it is used; audited without a password; never
// for a user with scopes the caller lacks; 404 for an unknown e-mail.
import { describe, expect, it } from "vitest";
import { AdminClient, PASSWORD, signedInClient, staffUser } from "../../support/admin.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { linkTokenTo } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["staff:write", "orders:read"] } });

const db = () => server.prisma;
type Reset = { user: { email: string }; generatedPassword: string | null; sessionsEnded: number };

async function signsIn(email: string, password: string): Promise<boolean> {
  return (await new AdminClient(server).signIn(email, password)).status === 303;
}

describe("staff.reset_password", () => {
  it("sets the new password and ends every session of the user, audited without the password", async () => {
    const first = await signedInClient(server, "lager@nordlys.dk", ["orders:read"]);
    const second = new AdminClient(server);
    expect((await second.signIn("lager@nordlys.dk")).status).toBe(303);
    expect((await first.get("/admin/orders")).status).toBe(200);

    const reset = expectOk<Reset>(server, "staff.reset_password", await server.call("staff.reset_password", { email: "lager@nordlys.dk", password: "et helt nyt kodeord" }, { key }));
    expect(reset).toMatchObject({ user: { email: "lager@nordlys.dk" }, generatedPassword: null, sessionsEnded: 2 });
    for (const client of [first, second]) expect((await client.get("/admin/orders")).status).toBe(303);
    expect(await signsIn("lager@nordlys.dk", PASSWORD)).toBe(false);
    expect(await signsIn("lager@nordlys.dk", "et helt nyt kodeord")).toBe(true);

    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "staff.reset_password", subjectType: "adminUser", note: "New password; 2 session(s) ended." });
    const row = await db().adminUser.findUniqueOrThrow({ where: { email: "lager@nordlys.dk" } });
    const written = JSON.stringify(await db().auditEntry.findMany({ where: { subjectType: "adminUser" } }));
    expect(written).not.toContain("et helt nyt kodeord");
    expect(written).not.toContain(row.passwordHash);
  });

  it("generates a password when none is given, returned this once", async () => {
    const reset = expectOk<Reset>(server, "staff.reset_password", await server.call("staff.reset_password", { email: "lager@nordlys.dk" }, { key }));
    expect(reset.generatedPassword).toMatch(/^[\w-]{24}$/);
    expect(await signsIn("lager@nordlys.dk", reset.generatedPassword!)).toBe(true);
    expect(JSON.stringify(await lastAudit(server))).not.toContain(reset.generatedPassword);
  });

  it("with sendLink e-mails a reset link and changes nothing until it is used", async () => {
    const mail = captureMail(server);
    const client = await signedInClient(server, "link@nordlys.dk", ["orders:read"]);
    const reset = expectOk<Reset>(server, "staff.reset_password", await server.call("staff.reset_password", { email: "link@nordlys.dk", sendLink: true }, { key }));
    expect(reset).toMatchObject({ user: { email: "link@nordlys.dk" }, generatedPassword: null, sessionsEnded: 0 });
    expect(await lastAudit(server)).toMatchObject({ tool: "staff.reset_password", note: "Reset link e-mailed." });
    const token = await linkTokenTo(server, mail, "link@nordlys.dk");
    expect((await client.get("/admin/orders")).status).toBe(200);
    expect(await signsIn("link@nordlys.dk", PASSWORD)).toBe(true);
    expectOk(server, "staff.set_password", await server.call("staff.set_password", { token, password: "valgt af mig selv" }));
    expect(await signsIn("link@nordlys.dk", "valgt af mig selv")).toBe(true);
  });

  it("refuses sendLink with a password (400) and for a user with scopes the caller lacks (403), e-mailing nobody", async () => {
    const mail = captureMail(server);
    await staffUser(server, "ejer2@nordlys.dk", ["*"]);
    const before = await auditCount(server);
    expectProblem(await server.call("staff.reset_password", { email: "link@nordlys.dk", password: "langt nok kodeord", sendLink: true }, { key }), 400, "invalid_input");
    expectProblem(await server.call("staff.reset_password", { email: "ejer2@nordlys.dk", sendLink: true }, { key }), 403, "forbidden");
    expect(await auditCount(server)).toBe(before);
    await server.runtime.collaborators.background.idle();
    expect(mail.sent).toEqual([]);
  });

  it("refuses a user with scopes the caller lacks, whose password stays", async () => {
    await staffUser(server, "ejer@nordlys.dk", ["*"]);
    const before = await auditCount(server);
    const refused = await server.call("staff.reset_password", { email: "ejer@nordlys.dk", password: "overtaget konto!" }, { key });
    expectProblem(refused, 403, "forbidden");
    expect(await signsIn("ejer@nordlys.dk", PASSWORD)).toBe(true);
    expect(await auditCount(server)).toBe(before);
  });

  it("answers 404 for an unknown e-mail", async () => {
    expectProblem(await server.call("staff.reset_password", { email: "ingen@nordlys.dk" }, { key }), 404, "not_found");
  });

  it("needs staff:write", async () => {
    await staffUser(server, "matrix@nordlys.dk", ["staff:write"]);
    await expectScopeMatrix(server, "staff.reset_password", { email: "matrix@nordlys.dk" });
  });

  it("rejects bad input and changes nothing", async () => {
    await expectRejected(
      server,
      "staff.reset_password",
      key,
      [{}, { password: "langt nok kodeord" }, { email: "lager@nordlys.dk", password: "kort" }, { email: "lager@nordlys.dk", password: "x".repeat(201) }, { email: "lager", password: "langt nok kodeord" }, { email: "lager@nordlys.dk", sessions: false }, { email: "lager@nordlys.dk", sendLink: "yes" }],
      async () => [JSON.stringify(await db().adminUser.findMany({ select: { email: true, passwordHash: true }, orderBy: { email: "asc" } })), await auditCount(server)],
    );
  });
});
