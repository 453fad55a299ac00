// GET /info/<slug>: a published content page, its section layout when set, else its body (drafts are 404). The terms
// pages /info/handelsbetingelser and /info/privatlivspolitik are pinned: without a published page of that slug they show
// the terms, or the privacy policy, saved in the policies (Indstillinger → Vilkår og politikker).
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
/** The pinned privacy page, the same way: without a published page of its own it shows the saved privacy policy. */
const PRIVACY_SLUG = "privatlivspolitik";

/** The pinned pages: their title and the policy text (settings.get_policies) each shows when no page overrides it. */
const PINNED: Record<string, { title: string; text: "terms" | "privacy" }> = {
  [TERMS_SLUG]: { title: "Handelsbetingelser", text: "terms" },
  [PRIVACY_SLUG]: { title: "Privatlivspolitik", text: "privacy" },
};

export async function infoPage(web: StorefrontRequest, slug: string): Promise<View> {
  if (!SLUG.test(slug)) throw new NotFound(`No page "${slug}".`);
  const pinned = Object.hasOwn(PINNED, slug) ? PINNED[slug] : undefined;
  const page = await web.read(pagesGet, { slug }).catch((error: unknown) => {
    if (pinned && error instanceof ToolError && error.status === 404) return null;
    throw error;
  });
  if (pinned && (!page || page.status !== "published")) return policyPage(web, slug, pinned);
  if (!page) throw new NotFound(`No page "${slug}".`);
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

async function policyPage(web: StorefrontRequest, slug: string, { title, text }: { title: string; text: "terms" | "privacy" }): Promise<View> {
  const policies = await web.read(settingsGetPolicies, {});
  return {
    title,
    canonical: `/info/${slug}`,
    main: html`${breadcrumbs([{ label: "Forside", href: "/" }, { label: title }])}
<article class="prose info">
<h1>${title}</h1>
${bodyHtml(policies[text])}
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
