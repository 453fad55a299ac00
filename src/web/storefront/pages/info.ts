// GET /info/<slug>: a published content page, its section layout when set, else its body (drafts are 404). The terms
// page /info/handelsbetingelser is pinned: without a published page of that slug it shows the terms of the policies.
import { NotFound, ToolError } from "../../../core/errors.ts";
import pagesGet from "../../../tools/pages/get.ts";
import pagesGetLayout from "../../../tools/pages/get_layout.ts";
import productsGet from "../../../tools/products/get.ts";
import productsSearch from "../../../tools/products/search.ts";
import settingsGetPolicies from "../../../tools/settings/get_policies.ts";
import { validLayout } from "../../../tools/pages/layout-sections.ts";
import { breadcrumbs } from "../../components.ts";
import { bodyHtml, html } from "../../html.ts";
import type { View } from "../../page.ts";
import type { CardProduct } from "../components.ts";
import { layoutHtml, type GridRequest } from "../sections.ts";
import type { StorefrontRequest } from "../site.ts";

const SLUG = /^[a-z0-9-]{2,200}$/;

/** The pinned terms page, linked from the checkout and the footer (and named in the ACP/UCP feeds). */
const TERMS_SLUG = "handelsbetingelser";

export async function infoPage(web: StorefrontRequest, slug: string): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No page "${slug}".`);
  const page = await web.read(pagesGet, { slug }).catch((error: unknown) => {
    if (slug === TERMS_SLUG && error instanceof ToolError && error.status === 404) return null;
    throw error;
  });
  if (!page || (slug === TERMS_SLUG && page.status !== "published")) return termsPage(web);
  if (page.status !== "published") throw new NotFound(`No published page "${slug}".`);
  const layout = page.hasLayout ? validLayout((await web.read(pagesGetLayout, { slug })).layout) : null;
  const content = layout ? await layoutHtml(layout, (request) => gridProducts(web, request), (await web.chrome()).currency) : bodyHtml(page.body);
  return {
    title: page.title,
    canonical: `/info/${page.slug}`,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: page.title }])}
<article class="prose info${layout ? " has-layout" : ""}">
<h1>${page.title}</h1>
${content}
</article>`,
  };
}

async function termsPage(web: StorefrontRequest): Promise<View> {
  const { terms } = await web.read(settingsGetPolicies, {});
  return {
    title: "Handelsbetingelser",
    canonical: `/info/${TERMS_SLUG}`,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: "Handelsbetingelser" }])}
<article class="prose info">
<h1>Handelsbetingelser</h1>
${bodyHtml(terms)}
</article>`,
  };
}

async function gridProducts(web: StorefrontRequest, request: GridRequest): Promise<CardProduct[]> {
  if (!request.productSlugs) return web.read(productsSearch, { categorySlug: request.categorySlug, limit: request.limit ?? 8 });
  const found = await Promise.all(
    request.productSlugs.map((slug) =>
      web.read(productsGet, { slug }).then(
        (product) => ({ ...product, firstImage: product.images[0] ?? null }),
        (error: unknown) => {
          if (error instanceof ToolError && error.status === 404) return null;
          throw error;
        },
      ),
    ),
  );
  return found.filter((product) => product !== null).slice(0, request.limit ?? 24);
}
