// pages.delete through real HTTP: hard delete with confirm, audit with after null, 404, scopes, bad input.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write"] } });

const prisma = () => server.prisma;

describe("pages.delete", () => {
  it("deletes the page and audits the full row", async () => {
    const before = await prisma().page.findUniqueOrThrow({ where: { slug: "vinterudsalg" } });
    const result = expectOk(server, "pages.delete", await server.call("pages.delete", { slug: "vinterudsalg", confirm: true }, { key }));
    expect(result).toEqual({ ok: true, slug: "vinterudsalg" });
    expect(await prisma().page.findUnique({ where: { slug: "vinterudsalg" } })).toBeNull();
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "pages.delete", subjectType: "page", subjectId: before.id, after: null });
    expect(audit?.before).toMatchObject({ id: before.id, slug: "vinterudsalg", title: "Vinterudsalg", body: before.body, status: "draft" });
  });

  it("answers 404 for an unknown (or already deleted) slug", async () => {
    const count = await auditCount(server);
    expectProblem(await server.call("pages.delete", { slug: "vinterudsalg", confirm: true }, { key }), 404, "not_found");
    expect(await auditCount(server)).toBe(count);
  });

  it("needs pages:write", async () => {
    await expectScopeMatrix(server, "pages.delete", { slug: "findes-ikke", confirm: true });
  });

  it("rejects bad input, including confirm other than true, with 400", async () => {
    await expectRejected(
      server,
      "pages.delete",
      key,
      [
        { slug: "om-os" },
        { slug: "om-os", confirm: false },
        { slug: "om-os", confirm: "yes" },
        { confirm: true },
        { slug: "a", confirm: true },
        { slug: "Om Os", confirm: true },
        { slug: 3, confirm: true },
        { slug: "om-os", confirm: true, cascade: true },
      ],
      async () => [await auditCount(server), await prisma().page.count()],
    );
  });
});
