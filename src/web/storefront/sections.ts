// Renders a page's section tree (src/tools/pages/layout.ts) as HTML; product grids read the catalogue read model.
import type { Layout, Section } from "../tools/pages/layout.ts";
import type { CatalogReadModel, ProductSummary } from "../tools/products/read-model.ts";
import { bodyHtml, escapeHtml, formatKr } from "./html.ts";

type Catalog = Pick<CatalogReadModel, "search" | "product">;
type GridProduct = Pick<ProductSummary, "slug" | "name" | "priceDkk" | "firstImage">;

const DEFAULT_GRID_LIMIT = 8;

export function layoutHtml(layout: Layout, catalog: Catalog): string {
  return layout.sections.map((section) => sectionHtml(section, catalog)).join("\n");
}

function sectionHtml(section: Section, catalog: Catalog): string {
  const attr = `data-section="${escapeHtml(section.id)}"`;
  switch (section.type) {
    case "hero": {
      const p = section.props;
      return `<section class="hero" ${attr}>
<h2>${escapeHtml(p.heading)}</h2>
${p.subheading ? `<p>${escapeHtml(p.subheading)}</p>` : ""}
${p.imageUrl ? `<img src="${escapeHtml(p.imageUrl)}" alt="">` : ""}
${p.ctaLabel && p.ctaUrl ? `<p><a class="button" href="${escapeHtml(p.ctaUrl)}">${escapeHtml(p.ctaLabel)}</a></p>` : ""}
</section>`;
    }
    case "text":
      return `<section ${attr}>
${section.props.heading ? `<h2>${escapeHtml(section.props.heading)}</h2>` : ""}
${bodyHtml(section.props.body, section.props.heading ? 3 : 2)}
</section>`;
    case "image": {
      const p = section.props;
      return `<figure ${attr}><img src="${escapeHtml(p.url)}" alt="${escapeHtml(p.alt)}">${p.caption ? `<figcaption>${escapeHtml(p.caption)}</figcaption>` : ""}</figure>`;
    }
    case "product_grid":
      return productGridHtml(section.props, attr, catalog);
    case "cta": {
      const p = section.props;
      return `<section class="cta" ${attr}>${p.text ? `<p>${escapeHtml(p.text)}</p>` : ""}<p><a class="button ${p.style === "secondary" ? "secondary" : "primary"}" href="${escapeHtml(p.url)}">${escapeHtml(p.label)}</a></p></section>`;
    }
    case "faq":
      return `<section class="faq" ${attr}>
<h2>${escapeHtml(section.props.title ?? "Ofte stillede spørgsmål")}</h2>
${section.props.items.map((item) => `<details><summary>${escapeHtml(item.q)}</summary>${bodyHtml(item.a)}</details>`).join("\n")}
</section>`;
    case "columns": {
      const columns = section.props.columns;
      return `<div class="columns columns-${columns.length}" ${attr}>
${columns.map((column) => `<div class="column">${column.map((inner) => sectionHtml(inner, catalog)).join("\n")}</div>`).join("\n")}
</div>`;
    }
  }
}

function productGridHtml(
  props: { title?: string | undefined; productSlugs?: string[] | undefined; categorySlug?: string | undefined; limit?: number | undefined },
  attr: string,
  catalog: Catalog,
): string {
  let products: GridProduct[];
  if (props.productSlugs) {
    products = props.productSlugs
      .map((slug) => catalog.product(slug))
      .filter((product) => product !== undefined)
      .map((product) => ({ slug: product.slug, name: product.name, priceDkk: product.priceDkk, firstImage: product.images[0] ?? null }))
      .slice(0, props.limit ?? 24);
  } else {
    products = catalog.search({ categorySlug: props.categorySlug ?? "", limit: props.limit ?? DEFAULT_GRID_LIMIT, offset: 0 });
  }
  const items = products.map(
    (product) => `<li class="card">
${product.firstImage ? `<img src="${escapeHtml(product.firstImage)}" alt="">` : ""}
<h3><a href="/products/${escapeHtml(encodeURIComponent(product.slug))}">${escapeHtml(product.name)}</a></h3>
<p class="price">${escapeHtml(formatKr(product.priceDkk))}</p>
</li>`,
  );
  return `<section class="product-grid" ${attr}>
${props.title ? `<h2>${escapeHtml(props.title)}</h2>` : ""}
${items.length ? `<ul class="card-list">\n${items.join("\n")}\n</ul>` : "<p>Ingen produkter at vise lige nu.</p>"}
</section>`;
}
