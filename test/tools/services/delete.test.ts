// services.delete through real HTTP: hard delete with confirm, audit with after null, 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write"] } });

const prisma = () => server.prisma;

describe("services.delete", () => {
  it("deletes the offering and audits the full row", async () => {
    const before = await prisma().serviceOffering.findUniqueOrThrow({ where: { slug: "brilleservice" } });
    const result = expectOk(server, "services.delete", await server.call("services.delete", { slug: "brilleservice", confirm: true }, { key }));
    expect(result).toEqual({ ok: true, slug: "brilleservice" });
    expect(await prisma().serviceOffering.findUnique({ where: { slug: "brilleservice" } })).toBeNull();
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "services.delete", subjectType: "serviceOffering", subjectId: before.id, after: null });
    expect(audit?.before).toMatchObject({ id: before.id, slug: "brilleservice", title: "Brilleservice", navOrder: 3, status: "draft" });
  });

  it("answers 404 for an unknown (or already deleted) slug", async () => {
    const count = await auditCount(server);
    expectProblem(await server.call("services.delete", { slug: "brilleservice", confirm: true }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(count);
  });

  it("needs pages:write", async () => {
    await expectScopeMatrix(server, "services.delete", { slug: "findes-ikke", confirm: true });
  });

  it("rejects bad input, including confirm other than true, with 400", async () => {
    await expectRejected(
      server,
      "services.delete",
      key,
      [
        { slug: "synsproeve" },
        { slug: "synsproeve", confirm: false },
        { slug: "synsproeve", confirm: "true" },
        { slug: "synsproeve", confirm: 1 },
        { confirm: true },
        { slug: "", confirm: true },
        { slug: 7, confirm: true },
        { slug: "synsproeve", confirm: true, force: true },
      ],
      async () => [await auditCount(server), await prisma().serviceOffering.count()],
    );
  });
});
