// pages.set_layout through real HTTP: every section type, nesting, clearing, audit, 404, scopes, and the section-tree validation.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write"] } });

const text = (id: string) => ({ id, type: "text", props: { body: "Tekst." } });
const full = {
  sections: [
    { id: "hero", type: "hero", props: { heading: "Om os", subheading: "Siden 1998", imageUrl: "https://example.com/h.jpg", ctaLabel: "Se briller", ctaUrl: "https://example.com/" } },
    { id: "tekst", type: "text", props: { heading: "Historien", body: "## Start\n\nVi begyndte i København." } },
    { id: "billede", type: "image", props: { url: "http://example.com/butik.jpg", alt: "Butikken", caption: "Vores butik" } },
    { id: "grid-kategori", type: "product_grid", props: { title: "Solbriller", categorySlug: "solbriller", limit: 4 } },
    { id: "grid-valgt", type: "product_grid", props: { productSlugs: ["gucci-oversize-bold-74"] } },
    { id: "cta", type: "cta", props: { label: "Book tid", url: "https://example.com/book", text: "Kom forbi", style: "secondary" } },
    { id: "faq", type: "faq", props: { title: "Spørgsmål", items: [{ q: "Åbent?", a: "Alle hverdage." }] } },
    {
      id: "kolonner",
      type: "columns",
      props: { columns: [[text("a1"), { id: "indre", type: "columns", props: { columns: [[text("b1")], [text("b2")]] } }], [text("a2")], [text("a3")]] },
    },
  ],
};
const row = (slug: string) => server.prisma.page.findUniqueOrThrow({ where: { slug } });
const setLayout = (input: object) => server.call("pages.set_layout", input, { key });

describe("pages.set_layout", () => {
  it("stores a tree with every section type and nested columns, and audits before/after", async () => {
    const before = await row("om-os");
    const result = expectOk(server, "pages.set_layout", await setLayout({ slug: "om-os", layout: full }));
    expect(result).toEqual({ slug: "om-os", hasLayout: true, sectionCount: 14 });
    expect((await row("om-os")).layout).toEqual(full);
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "pages.set_layout", subjectType: "page", subjectId: before.id });
    expect(audit?.before).toMatchObject({ id: before.id, slug: "om-os", layout: null, body: before.body });
    expect(audit?.after).toMatchObject({ id: before.id, slug: "om-os", layout: full });
  });

  it("clears the layout with null", async () => {
    const result = expectOk(server, "pages.set_layout", await setLayout({ slug: "om-os", layout: null }));
    expect(result).toEqual({ slug: "om-os", hasLayout: false, sectionCount: 0 });
    expect((await row("om-os")).layout).toBeNull();
    const audit = await lastAudit(server);
    expect(audit?.before).toMatchObject({ layout: full });
    expect(audit?.after).toMatchObject({ slug: "om-os" });
    expect((audit?.after as { layout?: unknown }).layout ?? null).toBeNull();
  });

  it("works on drafts too", async () => {
    expectOk(server, "pages.set_layout", await setLayout({ slug: "vinterudsalg", layout: { sections: [text("x")] } }));
    expect((await row("vinterudsalg")).layout).toEqual({ sections: [text("x")] });
  });

  it("answers 404 for an unknown slug", async () => {
    const count = await auditCount(server);
    expectProblem(await setLayout({ slug: "findes-ikke", layout: { sections: [text("x")] } }), 404, "not_found");
    expect(await auditCount(server)).toBe(count);
  });

  it("needs pages:write", async () => {
    await expectScopeMatrix(server, "pages.set_layout", { slug: "returret", layout: null });
  });

  it("rejects invalid trees with 400 and writes nothing", async () => {
    const with1 = (section: unknown) => ({ slug: "returret", layout: { sections: [section] } });
    const hero = (props: object) => with1({ id: "h", type: "hero", props: { heading: "Hej", ...props } });
    const cols = (columns: unknown[]) => with1({ id: "c", type: "columns", props: { columns } });
    const nest = (inner: unknown) => ({ id: `n${Math.random()}`, type: "columns", props: { columns: [[inner], [text(`t${Math.random()}`)]] } });
    await expectRejected(
      server,
      "pages.set_layout",
      key,
      [
        { slug: "returret" },
        { layout: null },
        { slug: "r", layout: null },
        { slug: "Returret", layout: null },
        { slug: "returret", layout: "hero" },
        { slug: "returret", layout: {} },
        { slug: "returret", layout: { sections: [] } },
        { slug: "returret", layout: { sections: Array.from({ length: 51 }, (_, i) => text(`s${i}`)) } },
        { slug: "returret", layout: { sections: [text("a")], theme: "dark" } },
        { slug: "returret", layout: null, confirm: true },
        with1({ id: "v", type: "video", props: { url: "https://example.com/v.mp4" } }),
        with1({ id: "t", type: "text" }),
        with1({ id: "t", props: { body: "x" } }),
        with1({ type: "text", props: { body: "x" } }),
        with1({ id: "", type: "text", props: { body: "x" } }),
        with1({ id: "x".repeat(65), type: "text", props: { body: "x" } }),
        with1({ id: 1, type: "text", props: { body: "x" } }),
        with1({ id: "t", type: "text", props: { body: "" } }),
        with1({ id: "t", type: "text", props: { body: "x", color: "red" } }),
        with1({ id: "t", type: "text", props: { body: "x" }, hidden: true }),
        with1({ id: "h", type: "hero", props: {} }),
        hero({ heading: "" }),
        hero({ heading: "x".repeat(201) }),
        hero({ ctaLabel: "Køb" }),
        hero({ ctaUrl: "https://example.com/" }),
        hero({ imageUrl: "javascript:alert(1)" }),
        hero({ imageUrl: "data:image/png;base64,AAAA" }),
        hero({ imageUrl: "/relativ.jpg" }),
        hero({ ctaLabel: "Køb", ctaUrl: "ftp://example.com/" }),
        with1({ id: "i", type: "image", props: { url: "https://example.com/a.jpg" } }),
        with1({ id: "i", type: "image", props: { url: "not a url", alt: "" } }),
        with1({ id: "g", type: "product_grid", props: {} }),
        with1({ id: "g", type: "product_grid", props: { productSlugs: ["a"], categorySlug: "solbriller" } }),
        with1({ id: "g", type: "product_grid", props: { productSlugs: [] } }),
        with1({ id: "g", type: "product_grid", props: { productSlugs: Array.from({ length: 25 }, (_, i) => `p${i}`) } }),
        with1({ id: "g", type: "product_grid", props: { categorySlug: "solbriller", limit: 0 } }),
        with1({ id: "g", type: "product_grid", props: { categorySlug: "solbriller", limit: 25 } }),
        with1({ id: "g", type: "product_grid", props: { categorySlug: "solbriller", limit: 2.5 } }),
        with1({ id: "k", type: "cta", props: { label: "Køb" } }),
        with1({ id: "k", type: "cta", props: { label: "Køb", url: "https://example.com/", style: "loud" } }),
        with1({ id: "f", type: "faq", props: { items: [] } }),
        with1({ id: "f", type: "faq", props: { items: [{ q: "Hvad?" }] } }),
        with1({ id: "f", type: "faq", props: { items: [{ q: "Hvad?", a: "Det.", extra: 1 }] } }),
        cols([[text("a")]]),
        cols([[text("a")], [text("b")], [text("c")], [text("d")], [text("e")]]),
        cols([[text("a")], []]),
        cols([[text("a")], text("b")]),
        with1(nest(nest(nest(text("dyb"))))),
        { slug: "returret", layout: { sections: [text("same"), text("same")] } },
        cols([[text("same")], [text("same")]]),
        { slug: "returret", layout: { sections: [text("c"), { id: "c2", type: "columns", props: { columns: [[text("c")], [text("d")]] } }] } },
        {
          slug: "returret",
          layout: {
            sections: Array.from({ length: 50 }, (_, i) => ({
              id: `c${i}`,
              type: "columns",
              props: { columns: [[text(`c${i}a`)], [text(`c${i}b`)], [text(`c${i}c`)], [text(`c${i}d`)]] },
            })),
          },
        },
      ],
      async () => [await auditCount(server), (await row("returret")).layout],
    );
  });

  it("explains what is wrong in the problem's errors", async () => {
    const response = await setLayout({ slug: "returret", layout: { sections: [text("same"), text("same")] } });
    expectProblem(response, 400, "invalid_input");
    expect(JSON.stringify(response.body.errors)).toContain("used twice");
    const unknown = await setLayout({ slug: "returret", layout: { sections: [{ id: "v", type: "video", props: {} }] } });
    expect(JSON.stringify(unknown.body.errors)).toContain("Unknown section type");
  });
});
