// staff.set_scopes through real HTTP: a signed-in user acts with the new scopes from their next request, audited; never
// beyond the caller's scopes, nor on a stronger user; the last user with "*" keeps it; 404 for an unknown e-mail.
import { describe, expect, it } from "vitest";
import { signedInClient, staffUser } from "../../support/admin.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["staff:write", "orders:read", "audit:read"] } });

const db = () => server.prisma;

describe("staff.set_scopes", () => {
  it("changes what a signed-in user may do from their next request, and audits the change", async () => {
    const clerk = await signedInClient(server, "lager@nordlys.dk", ["orders:read"]);
    expect((await clerk.get("/admin/audit")).status).toBe(403);

    const widened = expectOk(server, "staff.set_scopes", await server.call("staff.set_scopes", { email: "LAGER@nordlys.dk", scopes: ["orders:read", "audit:read"] }, { key }));
    expect(widened).toMatchObject({ email: "lager@nordlys.dk", scopes: ["orders:read", "audit:read"] });
    expect((await clerk.get("/admin/audit")).status).toBe(200);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "staff.set_scopes", subjectType: "adminUser", before: { scopes: ["orders:read"] }, after: { scopes: ["orders:read", "audit:read"] } });

    expectOk(server, "staff.set_scopes", await server.call("staff.set_scopes", { email: "lager@nordlys.dk", scopes: ["audit:read"] }, { key }));
    expect((await clerk.get("/admin/orders")).status).toBe(403);

    const before = await auditCount(server);
    expectOk(server, "staff.set_scopes", await server.call("staff.set_scopes", { email: "lager@nordlys.dk", scopes: ["audit:read"] }, { key }));
    expect(await auditCount(server)).toBe(before);
  });

  it("cannot grant a scope the caller lacks, nor change a user who has one", async () => {
    await staffUser(server, "vikar@nordlys.dk", ["orders:read"]);
    await staffUser(server, "chef@nordlys.dk", ["orders:read", "orders:write"]);
    const before = await auditCount(server);
    for (const [email, scopes] of [["vikar@nordlys.dk", ["orders:write"]], ["vikar@nordlys.dk", ["*"]], ["chef@nordlys.dk", ["orders:read"]]] as const) {
      expectProblem(await server.call("staff.set_scopes", { email, scopes }, { key }), 403, "forbidden");
    }
    expect((await db().adminUser.findUniqueOrThrow({ where: { email: "chef@nordlys.dk" } })).scopes).toEqual(["orders:read", "orders:write"]);
    expect(await auditCount(server)).toBe(before);
  });

  it("keeps a user with every scope: the last one cannot lose \"*\"", async () => {
    const owner = await server.key("*");
    await staffUser(server, "ejer@nordlys.dk", ["*"]);
    const refused = await server.call("staff.set_scopes", { email: "ejer@nordlys.dk", scopes: ["orders:read"] }, { key: owner });
    expectProblem(refused, 422, "last_owner");
    await staffUser(server, "medejer@nordlys.dk", ["*"]);
    expectOk(server, "staff.set_scopes", await server.call("staff.set_scopes", { email: "ejer@nordlys.dk", scopes: ["orders:read"] }, { key: owner }));
  });

  it("answers 404 for an unknown e-mail", async () => {
    expectProblem(await server.call("staff.set_scopes", { email: "ingen@nordlys.dk", scopes: ["orders:read"] }, { key }), 404, "not_found");
  });

  it("needs staff:write", async () => {
    await staffUser(server, "matrix@nordlys.dk", ["staff:write"]);
    await expectScopeMatrix(server, "staff.set_scopes", { email: "matrix@nordlys.dk", scopes: ["staff:write"] });
  });

  it("rejects bad input and changes nothing", async () => {
    await expectRejected(
      server,
      "staff.set_scopes",
      key,
      [{}, { email: "vikar@nordlys.dk" }, { scopes: ["orders:read"] }, { email: "vikar", scopes: ["orders:read"] }, { email: "vikar@nordlys.dk", scopes: [] }, { email: "vikar@nordlys.dk", scopes: ["nope"] }, { email: "vikar@nordlys.dk", scopes: ["orders:read"], id: "x" }],
      async () => [JSON.stringify(await db().adminUser.findMany({ select: { email: true, scopes: true }, orderBy: { email: "asc" } })), await auditCount(server)],
    );
  });
});
