// Staff sign-in, sign-out and the first-run setup link go through the executor (staff.sign_in, staff.sign_out,
// staff.redeem_setup) and leave audit entries with door "admin" — never the session token or its hash, nor a password.
import { describe, expect, it } from "vitest";
import { setupAnnouncement } from "../../../src/web/admin/pages/setup.ts";
import { AdminClient, csrfOf, PASSWORD, signedInClient, staffUser } from "../../support/admin.ts";
import { expectProblem } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys } = useServer({ keys: { reverter: ["audit:revert"] } });
const prisma = () => server.prisma;

describe("audit entries of staff sessions", () => {
  // First, while the demo shop has no staff user who can sign in.
  it("records the setup link's first staff user and their session", async () => {
    const url = new URL((await setupAnnouncement(server.runtime))!.url);
    const client = new AdminClient(server);
    const path = `${url.pathname}${url.search}`;
    const form = { _csrf: csrfOf((await client.get(path)).html), token: url.searchParams.get("token")!, email: "ejer@nordlys.dk", password: PASSWORD, password2: PASSWORD };
    expect((await client.request("POST", "/admin/setup", { form })).status).toBe(303);
    const owner = await prisma().adminUser.findUniqueOrThrow({ where: { email: "ejer@nordlys.dk" } });
    const entries = await prisma().auditEntry.findMany({ where: { tool: "staff.redeem_setup" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(entries.map((entry) => [entry.door, entry.actor, entry.subjectType, entry.subjectId === owner.id])).toEqual([
      ["admin", "anonymous", "adminUser", true],
      ["admin", "anonymous", "staffSession", false],
    ]);
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
    expect(JSON.stringify(entries)).not.toContain("tokenHash");
  });

  it("records a sign-in and a sign-out of the session, as the visitor and then as the staff user", async () => {
    const client = await signedInClient(server, "revisor@nordlys.dk");
    const staff = await prisma().adminUser.findUniqueOrThrow({ where: { email: "revisor@nordlys.dk" } });
    const session = await prisma().staffSession.findFirstOrThrow({ where: { staffId: staff.id } });
    expect((await client.submit("/admin", "/admin/logout", {})).status).toBe(303);

    const entries = await prisma().auditEntry.findMany({ where: { subjectId: session.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(entries.map((entry) => [entry.tool, entry.door, entry.actor, entry.subjectType])).toEqual([
      ["staff.sign_in", "admin", "anonymous", "staffSession"],
      ["staff.sign_out", "admin", `staff:${staff.id}`, "staffSession"],
    ]);
    expect(entries[0]!.after).toMatchObject({ id: session.id, staffId: staff.id, revokedAt: null });
    expect(entries[1]!.after).toMatchObject({ id: session.id, revokedAt: expect.any(String) });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(session.tokenHash);
    expect(text).not.toContain("tokenHash");
    expect(text).not.toContain(PASSWORD);
    // A sign-out is a record, not a change: reverting it would bring the ended session back.
    expectProblem(await server.call("audit.revert", { id: entries[1]!.id }, { key: keys.reverter }), 422, "not_revertible");
  });

  // That the refused attempt is still counted (committed) is what expiry-throttle.test.ts's lock-out shows.
  it("records nothing for a refused sign-in", async () => {
    await staffUser(server, "glemsom@nordlys.dk");
    const before = await prisma().auditEntry.count({ where: { tool: "staff.sign_in" } });
    const page = await new AdminClient(server).signIn("glemsom@nordlys.dk", "forkert adgangskode");
    expect(page.status).toBe(401);
    expect(await prisma().auditEntry.count({ where: { tool: "staff.sign_in" } })).toBe(before);
  });
});
