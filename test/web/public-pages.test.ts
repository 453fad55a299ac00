// The public pages /services, /services/<slug> and /info/<slug> over real HTTP: markup, ordering, layouts, escaping, drafts and lifecycles.
import { describe, expect, it } from "vitest";
import { bodyHtml, escapeHtml, formatMoney } from "../../src/web/html.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:write", "pages:read"] } });

async function get(path: string): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

async function call(name: string, input: object): Promise<unknown> {
  return expectOk(server, name, await server.call(name, input, { key }));
}

function expectDocument(page: { html: string; headers: Headers }, title: string): void {
  expect(page.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/);
  expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
  expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  expect(page.html).toMatch(/^<!doctype html>\n<html lang="da">/);
  expect(page.html).toContain(`<title>${escapeHtml(title)} – Nordlys Optik</title>`);
  expect(page.html.match(/<main id="main"/g)).toHaveLength(1);
  expect(page.html).toContain("</main>");
  // Scripts only from files (CSP script-src 'self'): no inline code.
  for (const tag of page.html.match(/<script[^>]*>/gi) ?? []) expect(tag).toMatch(/ src="\/assets\/[\w.-]+\.js"/);
}

async function expectNotFound(path: string): Promise<void> {
  const page = await get(path);
  expect(page.status).toBe(404);
  expectDocument(page, "Siden findes ikke");
}

describe("html helpers", () => {
  it("formats øre as Danish kroner", () => {
    expect(formatMoney(123450, "DKK")).toBe("1.234,50 kr.");
    expect(formatMoney(99, "DKK")).toBe("0,99 kr.");
    expect(formatMoney(49900, "DKK")).toBe("499,00 kr.");
    expect(formatMoney(123456789, "DKK")).toBe("1.234.567,89 kr.");
  });

  it("escapes every special character", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("turns ## lines into headings and blank-line blocks into paragraphs", () => {
    expect(bodyHtml("## Titel\n\nFørste linje\nanden linje\n\n\nNy <b>afsnit</b>").value).toBe(
      "<h2>Titel</h2>\n<p>Første linje<br>\nanden linje</p>\n<p>Ny &lt;b&gt;afsnit&lt;/b&gt;</p>",
    );
  });
});

describe("GET /services", () => {
  it("lists the published offerings by navOrder with title, short description, price and link", async () => {
    const page = await get("/services");
    expect(page.status).toBe(200);
    expectDocument(page, "Ydelser");
    expect(page.html).toContain('<a href="/services/synsproeve">Synsprøve</a>');
    expect(page.html).toContain("Gratis synsprøve ved køb af briller.");
    expect(page.html).toContain("Fra 395 kr.");
    expect(page.html.indexOf("/services/synsproeve")).toBeLessThan(page.html.indexOf("/services/kontaktlinsetilpasning"));
    expect(page.html).not.toContain("brilleservice");
  });

  it("orders by navOrder, then title", async () => {
    await call("services.create", { title: "Zebra-service", body: "Tekst.", slug: "zebra", navOrder: -10 });
    await call("services.create", { title: "Abe-service", body: "Tekst.", slug: "abe", navOrder: -10 });
    const { html } = await get("/services");
    const order = ["/services/abe\"", "/services/zebra\"", "/services/synsproeve\"", "/services/kontaktlinsetilpasning\""].map((link) => html.indexOf(link));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});

describe("GET /services/<slug>", () => {
  it("shows one published offering: title, body paragraphs, features, price and hero image", async () => {
    await call("services.create", {
      title: "Glasskift",
      slug: "glasskift",
      body: "## Sådan foregår det\n\nVi skifter dine glas.\n\nDet tager en dag.",
      priceString: "Fra 600 kr.",
      heroImage: "https://images.example.com/glas.jpg",
      features: ["Samme dag", "Garanti"],
    });
    const page = await get("/services/glasskift");
    expect(page.status).toBe(200);
    expectDocument(page, "Glasskift");
    expect(page.html).toContain("<h1>Glasskift</h1>");
    expect(page.html).toContain("<h2>Sådan foregår det</h2>");
    expect(page.html).toContain("<p>Vi skifter dine glas.</p>");
    expect(page.html).toContain("<p>Det tager en dag.</p>");
    expect(page.html).toContain("<li>Samme dag</li>");
    expect(page.html).toContain("<li>Garanti</li>");
    expect(page.html).toContain("Fra 600 kr.");
    expect(page.html).toContain('src="https://images.example.com/glas.jpg"');
  });

  it("answers an HTML 404 for drafts and unknown slugs", async () => {
    await expectNotFound("/services/brilleservice");
    await expectNotFound("/services/findes-ikke");
    await expectNotFound("/services/%3Cscript%3E");
  });

  it("follows the draft/published lifecycle", async () => {
    await call("services.update", { slug: "brilleservice", patch: { status: "published" } });
    expect((await get("/services/brilleservice")).status).toBe(200);
    expect((await get("/services")).html).toContain('href="/services/brilleservice"');
    await call("services.update", { slug: "brilleservice", patch: { status: "draft" } });
    await expectNotFound("/services/brilleservice");
    expect((await get("/services")).html).not.toContain("brilleservice");
    const created = (await call("services.create", { title: "Ny kladde", body: "Tekst.", status: "draft" })) as { slug: string };
    await expectNotFound(`/services/${created.slug}`);
    await call("services.delete", { slug: "glasskift", confirm: true });
    await expectNotFound("/services/glasskift");
  });

  it("escapes every stored value", async () => {
    const evil = `<script>alert("x")</script> & 'Co'`;
    await call("services.create", {
      title: evil,
      slug: "ond",
      body: `## <script>h()</script>\n\n<img src=x onerror=alert(1)>`,
      shortDescription: evil,
      priceString: "<b>0</b>",
      features: ["<script>f()</script>"],
    });
    for (const path of ["/services/ond", "/services"]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.html).not.toMatch(/<script>|<img src=x|<b>0/);
      expect(page.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;");
    }
    expect((await get("/services/ond")).html).toContain(`<title>${escapeHtml(evil)} – Nordlys Optik</title>`);
  });
});

describe("GET /info/<slug>", () => {
  it("renders a published page's body: ## lines as <h2>, blocks as <p>", async () => {
    const page = await get("/info/om-os");
    expect(page.status).toBe(200);
    expectDocument(page, "Om Nordlys Optik");
    expect(page.html).toContain("<h1>Om Nordlys Optik</h1>");
    expect(page.html).toContain("<h2>Hvem vi er</h2>");
    expect(page.html).toContain("<p>Nordlys Optik er en dansk brillebutik grundlagt i København.</p>");
    expect(page.html).toContain("<h2>Vores løfte</h2>");
  });

  it("hides drafts and unknown pages behind an HTML 404, and shows them once published", async () => {
    await expectNotFound("/info/vinterudsalg");
    await expectNotFound("/info/findes-ikke");
    await call("pages.upsert", { slug: "vinterudsalg", title: "Vinterudsalg", body: "Nu med 40 % rabat på alt.", status: "published" });
    expect((await get("/info/vinterudsalg")).html).toContain("<p>Nu med 40 % rabat på alt.</p>");
    await call("pages.upsert", { slug: "vinterudsalg", title: "Vinterudsalg", body: "Udsalget er slut igen.", status: "draft" });
    await expectNotFound("/info/vinterudsalg");
    await call("pages.upsert", { slug: "ny-side", title: "Ny side", body: "Ny side, straks synlig." });
    expect((await get("/info/ny-side")).status).toBe(200);
    await call("pages.delete", { slug: "ny-side", confirm: true });
    await expectNotFound("/info/ny-side");
  });

  it("escapes the title and body", async () => {
    await call("pages.upsert", { slug: "ond-side", title: "<script>alert(1)</script>", body: "## <i>x</i>\n\n<script>alert(2)</script>" });
    const page = await get("/info/ond-side");
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<script>|<i>/);
    expect(page.html).toContain("<title>&lt;script&gt;alert(1)&lt;/script&gt; – Nordlys Optik</title>");
    expect(page.html).toContain("<h2>&lt;i&gt;x&lt;/i&gt;</h2>");
  });

  it("renders a layout instead of the body: every section type, product grids from the catalogue", async () => {
    const grid = expectOk<Array<{ slug: string; name: string; priceDkk: number }>>(
      server,
      "products.search",
      await server.call("products.search", { categorySlug: "solbriller", limit: 3 }),
    );
    const deleted = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: { not: null } } });
    const picked = grid[0]!;
    const layout = {
      sections: [
        { id: "hero", type: "hero", props: { heading: "Returret <30 dage>", subheading: "Helt uden besvær", imageUrl: "https://example.com/h.jpg", ctaLabel: "Kontakt os", ctaUrl: "https://example.com/kontakt?a=1&b=2" } },
        { id: "tekst", type: "text", props: { heading: "Sådan", body: "## Trin\n\nSend varen retur." } },
        { id: "billede", type: "image", props: { url: "https://example.com/pakke.jpg", alt: "En pakke", caption: "Pak den godt ind" } },
        { id: "kategori", type: "product_grid", props: { title: "Solbriller", categorySlug: "solbriller", limit: 3 } },
        { id: "valgte", type: "product_grid", props: { productSlugs: [deleted.slug, picked.slug] } },
        { id: "cta", type: "cta", props: { label: "Start retur", url: "https://example.com/retur", style: "secondary" } },
        { id: "faq", type: "faq", props: { items: [{ q: "Hvor lang tid?", a: "30 dage." }] } },
        { id: "kolonner", type: "columns", props: { columns: [[{ id: "v", type: "text", props: { body: "Venstre kolonne." } }], [{ id: "h", type: "text", props: { body: "Højre kolonne." } }]] } },
      ],
    };
    await call("pages.set_layout", { slug: "returret", layout });
    const page = await get("/info/returret");
    expect(page.status).toBe(200);
    expectDocument(page, "Returret");
    const html = page.html;
    expect(html).not.toContain("Du kan returnere ubrugte varer");
    expect(html).toContain("Returret &lt;30 dage&gt;");
    expect(html).toContain("Helt uden besvær");
    expect(html).toContain('href="https://example.com/kontakt?a=1&amp;b=2">Kontakt os</a>');
    expect(html).toContain("<h2>Sådan</h2>");
    expect(html).toContain("<h3>Trin</h3>");
    expect(html).toContain('<img src="https://example.com/pakke.jpg" alt="En pakke">');
    expect(html).toContain("<figcaption>Pak den godt ind</figcaption>");
    for (const product of grid) {
      expect(html).toContain(`href="/products/${product.slug}"`);
      expect(html).toContain(`<h3 class="product-name">${escapeHtml(product.name)}</h3>`);
      expect(html).toContain(formatMoney(product.priceDkk, "DKK"));
    }
    expect(html).toMatch(/\d+,\d\d kr\./);
    expect(html).not.toContain(`/products/${deleted.slug}"`);
    expect(html.split(`/products/${picked.slug}"`)).toHaveLength(3);
    expect(html).toContain('class="button button-secondary" href="https://example.com/retur">Start retur</a>');
    expect(html).toContain("<summary>Hvor lang tid?</summary>");
    expect(html).toContain('class="columns columns-2"');
    expect(html).toContain("Venstre kolonne.");
    expect(html).toContain("Højre kolonne.");
  });

  it("falls back to the body when the stored layout does not validate, and after the layout is cleared", async () => {
    await server.prisma.page.update({
      where: { slug: "returret" },
      data: { layout: { sections: [{ id: "x", type: "hero", props: { heading: "Ond", imageUrl: "javascript:alert(1)" } }] } },
    });
    let html = (await get("/info/returret")).html;
    expect(html).toContain("<h2>14 dages returret</h2>");
    expect(html).not.toContain("javascript:");
    await call("pages.set_layout", { slug: "returret", layout: { sections: [{ id: "t", type: "text", props: { body: "Layout-tekst." } }] } });
    expect((await get("/info/returret")).html).toContain("<p>Layout-tekst.</p>");
    await call("pages.set_layout", { slug: "returret", layout: null });
    html = (await get("/info/returret")).html;
    expect(html).toContain("<h2>14 dages returret</h2>");
    expect(html).not.toContain("Layout-tekst.");
  });
});
