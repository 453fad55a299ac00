// staff.list through real HTTP: the staff users oldest first with scopes and last sign-in, never a password hash.
import { describe, expect, it } from "vitest";
import { DEMO } from "../../../prisma/seed/history.ts";
import { signedInClient, staffUser } from "../../support/admin.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["staff:read"] } });

type Staff = { id: string; email: string; scopes: string[]; createdAt: string; lastLoginAt: string | null };

describe("staff.list", () => {
  it("lists the staff users oldest first with their scopes and last sign-in, without password hashes", async () => {
    // The demo shop's trainee, invited but without a password yet.
    const trainee = { id: DEMO.invitedStaff.id, email: DEMO.invitedStaff.email, scopes: ["catalog:read"], createdAt: expect.any(String), lastLoginAt: null };
    expect(expectOk<Staff[]>(server, "staff.list", await server.call("staff.list", {}, { key }))).toEqual([trainee]);
    const owner = await staffUser(server, "ejer@nordlys.dk");
    await signedInClient(server, "lager@nordlys.dk", ["orders:read"]);
    const users = expectOk<Staff[]>(server, "staff.list", await server.call("staff.list", {}, { key }));
    expect(users).toEqual([
      trainee,
      { id: owner.id, email: "ejer@nordlys.dk", scopes: ["*"], createdAt: expect.any(String), lastLoginAt: null },
      { id: expect.any(String), email: "lager@nordlys.dk", scopes: ["orders:read"], createdAt: expect.any(String), lastLoginAt: expect.any(String) },
    ]);
    const hashes = await server.prisma.adminUser.findMany({ select: { passwordHash: true } });
    for (const { passwordHash } of hashes) if (passwordHash) expect(JSON.stringify(users)).not.toContain(passwordHash);
  });

  it("needs staff:read", async () => {
    await expectScopeMatrix(server, "staff.list", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "staff.list", key, [{ email: "ejer@nordlys.dk" }, { limit: 10 }]);
  });
});
