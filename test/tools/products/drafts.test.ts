// Draft products through real HTTP: created or set as drafts with products.create/update, hidden from every shopper
// read (products.search/get, category counts, the storefront page, the sitemap) until published, read by staff
// with `drafts: true` (products:write only) and shown in the admin's product list and form as "Kladde".
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { expectOk, expectProblem } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
let writer: string;
let reader: string;
let owner: AdminClient;
beforeAll(async () => {
  writer = await server.key("products:write", "catalog:read");
  reader = await server.key("catalog:read");
  owner = await signedInClient(server, "ejer@nordlys.dk");
});

const SLUG = "kladde-panto-demo";
const searchSlugs = async (input: Record<string, unknown>, key?: string) =>
  expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", input, key ? { key } : {})).map((p) => p.slug);
const categoryCount = async () =>
  expectOk<Array<{ slug: string; productCount: number }>>(server, "categories.list", await server.call("categories.list", {})).find((c) => c.slug === "solbriller")!.productCount;

describe("draft products", () => {
  it("are created hidden from shoppers and shown once published", async () => {
    const countBefore = await categoryCount();
    expectOk(server, "products.create", await server.call("products.create", {
      name: "Kladde Panto Demo", slug: SLUG, description: "Et stel, der endnu ikke er klar til butikken.", priceDkk: 79900, stock: 3, categorySlug: "solbriller", draft: true,
    }, { key: writer }));
    expect((await server.prisma.product.findUniqueOrThrow({ where: { slug: SLUG } })).draft).toBe(true);

    // Shoppers and agents: 404 as for a deleted product, not in search, counts, storefront or sitemap.
    expectProblem(await server.call("products.get", { slug: SLUG }), 404, "not_found");
    expectProblem(await server.call("products.get_answers", { slug: SLUG }, { key: reader }), 404, "not_found");
    expect(await searchSlugs({ q: "kladde panto" })).toEqual([]);
    expect(await categoryCount()).toBe(countBefore);
    expect((await fetch(`${server.url}/products/${SLUG}`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).not.toContain(SLUG);
    expectProblem(await server.call("cart.add", { productSlug: SLUG, quantity: 1 }, { key: await server.key("cart:write") }), 404, "not_found");

    // Staff with products:write read the drafts; others may not.
    expect(await searchSlugs({ q: "kladde panto", drafts: true }, writer)).toEqual([SLUG]);
    expect(await searchSlugs({ drafts: true }, writer)).toEqual([SLUG]);
    expect(expectOk<{ slug: string }>(server, "products.get", await server.call("products.get", { slug: SLUG, drafts: true }, { key: writer })).slug).toBe(SLUG);
    expectOk(server, "products.get_answers", await server.call("products.get_answers", { slug: SLUG, drafts: true }, { key: writer }));
    expectOk(server, "products.list_variants", await server.call("products.list_variants", { slug: SLUG, drafts: true }, { key: writer }));
    expectProblem(await server.call("products.get", { slug: SLUG, drafts: true }), 403, "forbidden");
    expectProblem(await server.call("products.search", { drafts: true }, { key: reader }), 403, "forbidden");
    // A published product is not among the drafts.
    expectProblem(await server.call("products.get", { slug: "oakley-aviator-coast-1", drafts: true }, { key: writer }), 404, "not_found");

    // Editable while a draft, then published.
    expectOk(server, "products.update", await server.call("products.update", { slug: SLUG, patch: { priceDkk: 69900 } }, { key: writer }));
    expectProblem(await server.call("products.get", { slug: SLUG }), 404, "not_found");
    expectOk(server, "products.update", await server.call("products.update", { slug: SLUG, patch: { draft: false } }, { key: writer }));
    const shown = expectOk<{ slug: string; priceDkk: number }>(server, "products.get", await server.call("products.get", { slug: SLUG }));
    expect(shown.priceDkk).toBe(69900);
    expect(await searchSlugs({ q: "kladde panto" })).toEqual([SLUG]);
    expect(await categoryCount()).toBe(countBefore + 1);
    expect((await fetch(`${server.url}/products/${SLUG}`)).status).toBe(200);
    expect(await searchSlugs({ drafts: true }, writer)).toEqual([]);
    // The output shapes stay as SPEC.md lists them.
    expect(Object.keys(shown)).not.toContain("draft");
  });

  it("hide a published product again when set back to draft", async () => {
    const slug = "oakley-aviator-coast-1";
    expectOk(server, "products.update", await server.call("products.update", { slug, patch: { draft: true } }, { key: writer }));
    expectProblem(await server.call("products.get", { slug }), 404, "not_found");
    expect((await fetch(`${server.url}/products/${slug}`)).status).toBe(404);
    expectOk(server, "products.update", await server.call("products.update", { slug, patch: { draft: false } }, { key: writer }));
    expect((await fetch(`${server.url}/products/${slug}`)).status).toBe(200);
  });

  it("are listed, opened and published in the admin", async () => {
    const created = await owner.submit("/admin/products/new", "/admin/products/new", {
      name: "Admin Kladde Stel", slug: "admin-kladde-stel", description: "Oprettet som kladde i administrationen.", price: "599,00", stock: "2", category: "solbriller", draft: "on",
    });
    expect(created.status, created.html.slice(0, 400)).toBe(303);
    expect((await server.prisma.product.findUniqueOrThrow({ where: { slug: "admin-kladde-stel" } })).draft).toBe(true);
    expectProblem(await server.call("products.get", { slug: "admin-kladde-stel" }), 404, "not_found");

    const list = await owner.get("/admin/products");
    expect(list.html).toMatch(/<a href="\/admin\/products\/admin-kladde-stel">Admin Kladde Stel<\/a> <span class="tag tag-warn">Kladde<\/span>/);
    const page = await owner.get("/admin/products/admin-kladde-stel");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Kladde (vises ikke i butikken)");
    expect(page.html).toMatch(/name="draft"[^>]*checked/);

    const saved = await owner.submit("/admin/products/admin-kladde-stel", "/admin/products/admin-kladde-stel", {
      name: "Admin Kladde Stel", description: "Oprettet som kladde i administrationen.", price: "599,00", category: "solbriller", returnable: "on",
    });
    expect(saved.status, saved.html.slice(0, 400)).toBe(303);
    expectOk(server, "products.get", await server.call("products.get", { slug: "admin-kladde-stel" }));
    const published = await owner.get("/admin/products/admin-kladde-stel");
    expect(published.html).not.toMatch(/name="draft"[^>]*checked/);
  });
});
