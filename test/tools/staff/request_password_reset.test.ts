// staff.request_password_reset through real HTTP: a Danish e-mail with a one-hour link for a staff user, the same answer
// (and no e-mail) for an address without one, 429 per e-mail and per client address; bad input writes nothing.
import { describe, expect, it } from "vitest";
import { staffUser } from "../../support/admin.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../orders/fixtures.ts";
import { mailTo } from "./fixtures.ts";

const { server } = useServer();
const db = () => server.prisma;
const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

describe("staff.request_password_reset", () => {
  it("e-mails a staff user a one-hour link, and answers an unknown e-mail alike without a mail", async () => {
    const mail = captureMail(server);
    const user = await staffUser(server, "glemt@nordlys.dk", ["orders:read"]);
    const known = await server.call("staff.request_password_reset", { email: " Glemt@Nordlys.dk " }, from("192.0.2.1"));
    const unknown = await server.call("staff.request_password_reset", { email: "ingen@nordlys.dk" }, from("192.0.2.1"));
    expect(expectOk(server, "staff.request_password_reset", known)).toEqual({ email: "glemt@nordlys.dk" });
    expect(expectOk(server, "staff.request_password_reset", unknown)).toEqual({ email: "ingen@nordlys.dk" });

    const sent = await mailTo(mail, "glemt@nordlys.dk");
    expect(sent.subject).toBe("Ny adgangskode til administrationen af Nordlys Optik");
    expect(sent.text).toContain("virker i 1 time");
    expect(sent.text).toMatch(new RegExp(`${server.runtime.config.publicBaseUrl}/admin/password\\?token=[\\w-]{43}\\n`));
    await server.runtime.collaborators.background.idle();
    expect(mail.sent.filter((m) => m.to === "ingen@nordlys.dk")).toEqual([]);
    const tokens = await db().staffPasswordToken.findMany({ where: { staffId: user.id } });
    expect(tokens).toMatchObject([{ purpose: "reset", usedAt: null }]);
    const ttl = tokens[0]!.expiresAt.getTime() - tokens[0]!.createdAt.getTime();
    expect(ttl).toBe(3_600_000);
    // Only the token's hash is stored.
    expect(sent.text).not.toContain(tokens[0]!.tokenHash);
    expect(await db().emailMessage.count({ where: { to: "glemt@nordlys.dk", kind: "staff_reset" } })).toBe(1);
  });

  it("answers 429 past 5 requests per e-mail an hour, for a known and an unknown e-mail alike", async () => {
    const mail = captureMail(server);
    await staffUser(server, "mange@nordlys.dk", ["orders:read"]);
    for (const email of ["mange@nordlys.dk", "ukendt@nordlys.dk"]) {
      for (let i = 0; i < 5; i++) expectOk(server, "staff.request_password_reset", await server.call("staff.request_password_reset", { email }, from(`192.0.2.${10 + i}`)));
      const refused = await server.call("staff.request_password_reset", { email }, from("192.0.2.20"));
      expectProblem(refused, 429, "rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    }
    await mailTo(mail, "mange@nordlys.dk", 5);
  });

  it("answers 429 past 20 requests per client address an hour, whatever the e-mail", async () => {
    for (let i = 0; i < 20; i++) expectOk(server, "staff.request_password_reset", await server.call("staff.request_password_reset", { email: `person${i}@nordlys.dk` }, from("203.0.113.7")));
    expectProblem(await server.call("staff.request_password_reset", { email: "endnu.en@nordlys.dk" }, from("203.0.113.7")), 429, "rate_limited");
    expectOk(server, "staff.request_password_reset", await server.call("staff.request_password_reset", { email: "endnu.en@nordlys.dk" }, from("203.0.113.8")));
  });

  it("is open without a key", async () => {
    await expectScopeMatrix(server, "staff.request_password_reset", { email: "matrix@nordlys.dk" });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "staff.request_password_reset",
      undefined,
      [{}, { email: "ikke en adresse" }, { email: `${"x".repeat(250)}@nordlys.dk` }, { email: "glemt@nordlys.dk", password: "langt nok kodeord" }],
      async () => [await db().staffPasswordToken.count(), await db().loginThrottle.count()],
    );
  });
});
