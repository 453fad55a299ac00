// The content-page editor's section forms over real HTTP, without JavaScript: a section of each type added through
// its form, saved, moved, removed, refused input shown with the errors, columns kept as they were (pages.set_layout).
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer@nordlys.dk");
});

const PAGE = "/admin/pages/om-os";
const layout = async () => (await server.prisma.page.findUniqueOrThrow({ where: { slug: "om-os" } })).layout as { sections: Array<{ id: string; type: string; props: Record<string, unknown> }> } | null;
const post = (form: Record<string, string>) => owner.submit(PAGE, "/admin/pages/section", { slug: "om-os", ...form });
const add = (type: string, fields: Record<string, string>) => post({ op: "add", type, index: "0", ...fields });

describe("the layout section forms", () => {
  it("show an add form for every section type", async () => {
    const page = await owner.get(PAGE);
    expect(page.status).toBe(200);
    for (const type of ["hero", "text", "image", "product_grid", "cta", "faq"]) expect(page.html).toContain(`name="type" value="${type}"`);
    expect(page.html).toContain("Ingen sektioner endnu");
  });

  it("add a section of each type, building the layout JSON", async () => {
    for (const [type, fields] of [
      ["hero", { heading: "Velkommen", subheading: "", imageUrl: "", ctaLabel: "Se udvalget", ctaUrl: "https://shop.example.dk/products" }],
      ["text", { heading: "", body: "Vi har solgt briller siden 1998." }],
      ["image", { url: "https://shop.example.dk/butik.jpg", alt: "Butikken", caption: "" }],
      ["product_grid", { title: "Udvalgte", productSlugs: "", categorySlug: "solbriller", limit: "4" }],
      ["cta", { label: "Book synsprøve", url: "https://shop.example.dk/services", text: "", style: "secondary" }],
      ["faq", { title: "Spørgsmål", items: "Har I åbent lørdag?\nJa, 10-14.\n\nKan jeg betale med MobilePay?\nJa." }],
    ] as const) {
      const answer = await add(type, fields);
      expect(answer.status, answer.html.slice(0, 500)).toBe(303);
    }
    expect((await layout())!.sections).toEqual([
      { id: "hero-1", type: "hero", props: { heading: "Velkommen", ctaLabel: "Se udvalget", ctaUrl: "https://shop.example.dk/products" } },
      { id: "text-1", type: "text", props: { body: "Vi har solgt briller siden 1998." } },
      { id: "image-1", type: "image", props: { url: "https://shop.example.dk/butik.jpg", alt: "Butikken" } },
      { id: "product_grid-1", type: "product_grid", props: { title: "Udvalgte", categorySlug: "solbriller", limit: 4 } },
      { id: "cta-1", type: "cta", props: { label: "Book synsprøve", url: "https://shop.example.dk/services", style: "secondary" } },
      { id: "faq-1", type: "faq", props: { title: "Spørgsmål", items: [{ q: "Har I åbent lørdag?", a: "Ja, 10-14." }, { q: "Kan jeg betale med MobilePay?", a: "Ja." }] } },
    ]);
    const page = await owner.get(PAGE);
    expect(page.html).toContain('value="Velkommen"');
    expect(page.html).toContain("Har I åbent lørdag?\nJa, 10-14.");
    expect((await owner.get("/info/om-os")).html).toContain("Velkommen");
  });

  it("save, move and remove a section", async () => {
    expect((await post({ op: "save", index: "1", heading: "Om os", body: "Nyt afsnit." })).status).toBe(303);
    expect((await layout())!.sections[1]).toEqual({ id: "text-1", type: "text", props: { heading: "Om os", body: "Nyt afsnit." } });
    expect((await post({ op: "up", index: "1" })).status).toBe(303);
    expect((await layout())!.sections.map((s) => s.id).slice(0, 2)).toEqual(["text-1", "hero-1"]);
    expect((await post({ op: "down", index: "0" })).status).toBe(303);
    expect((await layout())!.sections.map((s) => s.id).slice(0, 2)).toEqual(["hero-1", "text-1"]);
    expect((await post({ op: "remove", index: "2" })).status).toBe(303);
    expect((await layout())!.sections.map((s) => s.id)).toEqual(["hero-1", "text-1", "product_grid-1", "cta-1", "faq-1"]);
  });

  it("show the tool's refusal and keep the layout", async () => {
    const before = await layout();
    const refused = await post({ op: "save", index: "0", heading: "Velkommen", ctaLabel: "Kun tekst", ctaUrl: "" });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Layoutet blev ikke gemt");
    expect(refused.html, /error-list">(.*?)<\/ul>/s.exec(refused.html)?.[1]).toContain("sections.0.props: ");
    const gone = await post({ op: "save", index: "9", heading: "x" });
    expect(gone.status).toBe(400);
    expect(gone.html).toContain("Sektionen findes ikke længere");
    expect(await layout()).toEqual(before);
  });

  it("move a columns section without touching its contents, and clear the layout when the last goes", async () => {
    const columns = { id: "kolonner", type: "columns", props: { columns: [[{ id: "a", type: "text", props: { body: "Venstre" } }], [{ id: "b", type: "text", props: { body: "Højre" } }]] } };
    const current = (await layout())!;
    await server.prisma.page.update({ where: { slug: "om-os" }, data: { layout: JSON.parse(JSON.stringify({ sections: [...current.sections, columns] })) as object } });
    const page = await owner.get(PAGE);
    expect(page.html).toContain("2 kolonner; indholdet rettes i JSON-feltet");
    expect((await post({ op: "up", index: "5" })).status).toBe(303);
    expect((await layout())!.sections[4]).toEqual(columns);
    for (let i = 0; i < 6; i++) expect((await post({ op: "remove", index: "0" })).status).toBe(303);
    expect(await layout()).toBeNull();
  });
});
