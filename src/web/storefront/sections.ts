// Renders a page's section tree (src/tools/pages/layout-sections.ts) as HTML; product grids are filled by the caller's loader
// (the info page reads them through products.search / products.get).
import type { Layout, Section } from "../../tools/pages/layout-sections.ts";
import { bodyHtml, html, type Html } from "../html.ts";
import { productGrid, type CardProduct } from "./components.ts";

export interface GridRequest {
  productSlugs?: string[] | undefined;
  categorySlug?: string | undefined;
  limit?: number | undefined;
}

/** Loads the products of one product_grid section (unknown or deleted slugs are left out). */
export type GridLoader = (request: GridRequest) => Promise<CardProduct[]>;

/** The sections as HTML; product grids show prices in `currency`. */
export async function layoutHtml(layout: Layout, grid: GridLoader, currency: string): Promise<Html> {
  return html`${await Promise.all(layout.sections.map((section) => sectionHtml(section, grid, currency)))}`;
}

async function sectionHtml(section: Section, grid: GridLoader, currency: string): Promise<Html> {
  const id = section.id;
  switch (section.type) {
    case "hero": {
      const p = section.props;
      return html`<section class="section-hero" data-section="${id}">
<div class="section-hero-text">
<h2>${p.heading}</h2>
${p.subheading ? html`<p>${p.subheading}</p>` : ""}
${p.ctaLabel && p.ctaUrl ? html`<p><a class="button button-accent" href="${p.ctaUrl}">${p.ctaLabel}</a></p>` : ""}
</div>
${p.imageUrl ? html`<img src="${p.imageUrl}" alt="">` : ""}
</section>`;
    }
    case "text":
      return html`<section class="section-text" data-section="${id}">
${section.props.heading ? html`<h2>${section.props.heading}</h2>` : ""}
${bodyHtml(section.props.body, section.props.heading ? 3 : 2)}
</section>`;
    case "image": {
      const p = section.props;
      return html`<figure class="section-image" data-section="${id}"><img src="${p.url}" alt="${p.alt}">${p.caption ? html`<figcaption>${p.caption}</figcaption>` : ""}</figure>`;
    }
    case "product_grid": {
      const p = section.props;
      const products = await grid({ productSlugs: p.productSlugs, categorySlug: p.categorySlug, limit: p.limit });
      return html`<section class="section-products" data-section="${id}">
${p.title ? html`<h2>${p.title}</h2>` : ""}
${products.length ? productGrid(products, currency) : html`<p>Ingen produkter at vise lige nu.</p>`}
</section>`;
    }
    case "cta": {
      const p = section.props;
      return html`<section class="section-cta" data-section="${id}">${p.text ? html`<p>${p.text}</p>` : ""}<p><a class="button${p.style === "secondary" ? " button-secondary" : ""}" href="${p.url}">${p.label}</a></p></section>`;
    }
    case "faq":
      return html`<section class="section-faq faq" data-section="${id}">
<h2>${section.props.title ?? "Ofte stillede spørgsmål"}</h2>
${section.props.items.map((item) => html`<details><summary>${item.q}</summary>${bodyHtml(item.a)}</details>`)}
</section>`;
    case "columns": {
      const columns = section.props.columns;
      const inner = await Promise.all(columns.map(async (column) => html`<div class="column">${await Promise.all(column.map((child) => sectionHtml(child, grid, currency)))}</div>`));
      return html`<div class="columns columns-${columns.length}" data-section="${id}">${inner}</div>`;
    }
  }
}
