// pages.upsert through real HTTP: create vs update, the status rules of SPEC.md, audit, layout kept, scopes, bad input.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Result = { id: string; slug: string; title: string; status: string };

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write"] } });

const upsert = async (input: object) => expectOk<Result>(server, "pages.upsert", await server.call("pages.upsert", input, { key }));
const row = (slug: string) => server.prisma.page.findUniqueOrThrow({ where: { slug } });

describe("pages.upsert", () => {
  it("creates a new page, published when no status is given, and audits it", async () => {
    const result = await upsert({ slug: "levering", title: "Levering", body: "## Levering\n\nVi sender med GLS." });
    expect(result).toEqual({ id: expect.any(String), slug: "levering", title: "Levering", status: "published" });
    expect(await row("levering")).toMatchObject({ id: result.id, body: "## Levering\n\nVi sender med GLS.", status: "published", layout: null });
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "pages.upsert", subjectType: "page", subjectId: result.id, before: null });
    expect(audit?.after).toMatchObject({ id: result.id, slug: "levering", title: "Levering", status: "published" });
  });

  it("creates a draft when status draft is given", async () => {
    expect((await upsert({ slug: "kladde", title: "Kladde", body: "Ikke klar endnu.", status: "draft" })).status).toBe("draft");
  });

  it("updates an existing page and keeps its status when none is given", async () => {
    const before = await row("vinterudsalg");
    const result = await upsert({ slug: "vinterudsalg", title: "Stort vinterudsalg", body: "Op til 50 % rabat på alt." });
    expect(result).toEqual({ id: before.id, slug: "vinterudsalg", title: "Stort vinterudsalg", status: "draft" });
    expect(await row("vinterudsalg")).toMatchObject({ title: "Stort vinterudsalg", body: "Op til 50 % rabat på alt.", status: "draft" });
    const audit = await lastAudit(server);
    expect(audit?.before).toMatchObject({ id: before.id, title: "Vinterudsalg", status: "draft" });
    expect(audit?.after).toMatchObject({ id: before.id, title: "Stort vinterudsalg", status: "draft" });
    expect((await upsert({ slug: "om-os", title: "Om os", body: "Vi er en dansk brillebutik." })).status).toBe("published");
  });

  it("sets the status when it is given", async () => {
    expect((await upsert({ slug: "vinterudsalg", title: "Vinterudsalg", body: "Nu er udsalget i gang!", status: "published" })).status).toBe("published");
    expect((await upsert({ slug: "returret", title: "Returret", body: "Returret i 30 dage.", status: "draft" })).status).toBe("draft");
    expect((await row("returret")).status).toBe("draft");
  });

  it("keeps a page's layout when its text changes", async () => {
    const layout = { sections: [{ id: "a", type: "text", props: { body: "Fra layoutet." } }] };
    expectOk(server, "pages.set_layout", await server.call("pages.set_layout", { slug: "levering", layout }, { key: await server.key("pages:write") }));
    await upsert({ slug: "levering", title: "Levering", body: "Ny brødtekst her." });
    expect((await row("levering")).layout).toEqual(layout);
  });

  it("needs pages:write", async () => {
    await expectScopeMatrix(server, "pages.upsert", { slug: "matrix-side", title: "Matrix", body: "Til scope-testen." });
  });

  it("rejects bad input with 400 and writes nothing", async () => {
    const ok = { slug: "ny-side", title: "Ny side", body: "Mindst ti tegn." };
    await expectRejected(
      server,
      "pages.upsert",
      key,
      [
        {},
        { slug: "ny-side", title: "Ny side" },
        { slug: "ny-side", body: "Mindst ti tegn." },
        { title: "Ny side", body: "Mindst ti tegn." },
        { ...ok, slug: "a" },
        { ...ok, slug: "Ny Side" },
        { ...ok, slug: "ny_side" },
        { ...ok, slug: "søer" },
        { ...ok, slug: 5 },
        { ...ok, title: "N" },
        { ...ok, title: "x".repeat(201) },
        { ...ok, body: "for kort" },
        { ...ok, body: 1234567890 },
        { ...ok, status: "archived" },
        { ...ok, status: true },
        { ...ok, layout: null },
        { ...ok, unknown: 1 },
      ],
      async () => [await auditCount(server), await server.prisma.page.count()],
    );
  });
});
