// staff.set_password through real HTTP: an invitation or reset link's token sets the password once (also when two
// uses race), ends the user's sessions, is audited without password or token; unknown, used and expired tokens 422.
import { describe, expect, it } from "vitest";
import { DEMO } from "../../../prisma/seed/history.ts";
import { AdminClient, PASSWORD, signedInClient } from "../../support/admin.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { linkTokenTo } from "./fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["staff:write", "orders:read", "catalog:read"] } });
const db = () => server.prisma;
const UNKNOWN = "A".repeat(43);

async function signsIn(email: string, password: string): Promise<boolean> {
  return (await new AdminClient(server).signIn(email, password)).status === 303;
}

/** Asks for a reset link for `email` (anonymously) and returns its token. */
async function resetToken(email: string, box: ReturnType<typeof captureMail>, count = 1): Promise<string> {
  expectOk(server, "staff.request_password_reset", await server.call("staff.request_password_reset", { email }));
  return linkTokenTo(server, box, email, count);
}

describe("staff.set_password", () => {
  it("lets an invited user choose a password with the e-mailed link, once; audited without password or token", async () => {
    const mail = captureMail(server);
    expectOk(server, "staff.create", await server.call("staff.create", { email: "ny@nordlys.dk", scopes: ["orders:read"], invite: true }, { key: staff }));
    const token = await linkTokenTo(server, mail, "ny@nordlys.dk");
    expect(await signsIn("ny@nordlys.dk", "mit eget kodeord")).toBe(false);

    expect(expectOk(server, "staff.set_password", await server.call("staff.set_password", { token, password: "mit eget kodeord" }))).toEqual({ email: "ny@nordlys.dk" });
    expect(await signsIn("ny@nordlys.dk", "mit eget kodeord")).toBe(true);
    const user = await db().adminUser.findUniqueOrThrow({ where: { email: "ny@nordlys.dk" } });
    expect(await lastAudit(server)).toMatchObject({ tool: "staff.set_password", actor: "anonymous", subjectType: "adminUser", subjectId: user.id, note: "Password chosen with an invitation link; 0 session(s) ended." });
    const written = JSON.stringify(await db().auditEntry.findMany({ where: { subjectType: "adminUser" } }));
    for (const secret of ["mit eget kodeord", token, user.passwordHash!]) expect(written).not.toContain(secret);

    const before = await auditCount(server);
    expectProblem(await server.call("staff.set_password", { token, password: "et andet kodeord" }), 422, "invalid_token");
    expect(await auditCount(server)).toBe(before);
    expect(await signsIn("ny@nordlys.dk", "mit eget kodeord")).toBe(true);
  });

  it("redeems the demo shop's invitation (the example)", async () => {
    const { email, token } = DEMO.invitedStaff;
    expect(expectOk(server, "staff.set_password", await server.call("staff.set_password", { token, password: "nordlys-praktik-2026" }))).toEqual({ email });
    expect(await signsIn(email, "nordlys-praktik-2026")).toBe(true);
  });

  it("sets a forgotten password with a reset link and ends every session of the user", async () => {
    const mail = captureMail(server);
    const first = await signedInClient(server, "glemsom@nordlys.dk", ["orders:read"]);
    const second = new AdminClient(server);
    expect((await second.signIn("glemsom@nordlys.dk")).status).toBe(303);
    const token = await resetToken("glemsom@nordlys.dk", mail);
    // Asking for a link changes nothing yet.
    expect((await first.get("/admin/orders")).status).toBe(200);
    expectOk(server, "staff.set_password", await server.call("staff.set_password", { token, password: "husker det nu" }));
    for (const client of [first, second]) expect((await client.get("/admin/orders")).status).toBe(303);
    expect(await lastAudit(server)).toMatchObject({ note: "Password chosen with a reset link; 2 session(s) ended." });
    expect(await signsIn("glemsom@nordlys.dk", PASSWORD)).toBe(false);
    expect(await signsIn("glemsom@nordlys.dk", "husker det nu")).toBe(true);
  });

  it("refuses an unknown, an expired and a voided token with 422 invalid_token, writing nothing", async () => {
    const mail = captureMail(server);
    await signedInClient(server, "udloebet@nordlys.dk", ["orders:read"]);
    const older = await resetToken("udloebet@nordlys.dk", mail, 1);
    const newer = await resetToken("udloebet@nordlys.dk", mail, 2);
    const state = async () => [await auditCount(server), JSON.stringify(await db().adminUser.findUniqueOrThrow({ where: { email: "udloebet@nordlys.dk" } }))];
    const before = await state();
    expectProblem(await server.call("staff.set_password", { token: UNKNOWN, password: "ganske nyt kodeord" }), 422, "invalid_token");
    // A new link voids the older one.
    expectProblem(await server.call("staff.set_password", { token: older, password: "ganske nyt kodeord" }), 422, "invalid_token");
    await db().staffPasswordToken.updateMany({ where: { usedAt: null, staff: { email: "udloebet@nordlys.dk" } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectProblem(await server.call("staff.set_password", { token: newer, password: "ganske nyt kodeord" }), 422, "invalid_token");
    expect(await state()).toEqual(before);
    expect(await signsIn("udloebet@nordlys.dk", PASSWORD)).toBe(true);
  });

  it("lets only one of two racing uses of a token win", async () => {
    const mail = captureMail(server);
    await signedInClient(server, "kaploeb@nordlys.dk", ["orders:read"]);
    const token = await resetToken("kaploeb@nordlys.dk", mail);
    const answers = await Promise.all(["først til mølle", "anden til mølle"].map((password) => server.call("staff.set_password", { token, password })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(answers.find((answer) => answer.status === 422)!.body.code).toBe("invalid_token");
    const won = answers[0]!.status === 200 ? "først til mølle" : "anden til mølle";
    expect(await signsIn("kaploeb@nordlys.dk", won)).toBe(true);
    expect(await db().auditEntry.count({ where: { tool: "staff.set_password", subjectId: (await db().adminUser.findUniqueOrThrow({ where: { email: "kaploeb@nordlys.dk" } })).id } })).toBe(1);
  });

  it("is open without a key", async () => {
    const mail = captureMail(server);
    await signedInClient(server, "matrix@nordlys.dk", ["orders:read"]);
    const token = await resetToken("matrix@nordlys.dk", mail);
    await expectScopeMatrix(server, "staff.set_password", { token, password: "matrix kodeord" });
    expect(await signsIn("matrix@nordlys.dk", "matrix kodeord")).toBe(true);
  });

  it("rejects bad input and changes nothing", async () => {
    await expectRejected(
      server,
      "staff.set_password",
      undefined,
      [{}, { token: UNKNOWN }, { password: "langt nok kodeord" }, { token: "kort", password: "langt nok kodeord" }, { token: `${UNKNOWN}=`, password: "langt nok kodeord" }, { token: UNKNOWN, password: "kort" }, { token: UNKNOWN, password: "x".repeat(201) }, { token: UNKNOWN, password: "langt nok kodeord", email: "x@nordlys.dk" }],
      async () => [await auditCount(server), await db().staffPasswordToken.count({ where: { usedAt: { not: null } } })],
    );
  });
});
