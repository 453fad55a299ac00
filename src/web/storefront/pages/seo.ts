// GET /robots.txt and /sitemap.xml for search engines and agents: every public page (home, categories, products,
// services, published info pages) with absolute URLs; private pages (cart, checkout, account, orders) are disallowed.
import type { Request, Response } from "express";
import categoriesList from "../../../tools/categories/list.ts";
import pagesList from "../../../tools/pages/list.ts";
import productsSearch from "../../../tools/products/search.ts";
import servicesList from "../../../tools/services/list.ts";
import { escapeHtml } from "../../html.ts";
import type { StorefrontSite } from "../site.ts";

/** products.search pages at most 100 items up to offset 10,000: the sitemap lists at most that many products. */
const PAGE = 100;
const MAX_OFFSET = 10_000;

export function robotsTxt(site: StorefrontSite) {
  return (_req: Request, res: Response) => {
    const base = site.deps.config.publicBaseUrl;
    const lines = ["User-agent: *", "Allow: /", ...["/cart", "/checkout", "/account", "/orders/", "/api/"].map((path) => `Disallow: ${path}`), "", `Sitemap: ${base}/sitemap.xml`, ""];
    res.set({ "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" }).type("text/plain").send(lines.join("\n"));
  };
}

export function sitemapXml(site: StorefrontSite) {
  return async (req: Request, res: Response) => {
    const web = site.context(req, res);
    try {
      const base = site.deps.config.publicBaseUrl;
      const [categories, services, pages] = await Promise.all([
        web.read(categoriesList, { includeEmpty: false }),
        web.read(servicesList, { status: "published" }),
        web.read(pagesList, {}),
      ]);
      const paths = ["/", "/services", ...categories.map((category) => `/categories/${category.slug}`)];
      for (let offset = 0; offset <= MAX_OFFSET; offset += PAGE) {
        const products = await web.read(productsSearch, { limit: PAGE, offset });
        paths.push(...products.map((product) => `/products/${product.slug}`));
        if (products.length < PAGE) break;
      }
      paths.push(...services.map((service) => `/services/${service.slug}`));
      paths.push(...pages.filter((page) => page.status === "published").map((page) => `/info/${page.slug}`));
      const urls = paths.map((path) => `<url><loc>${escapeHtml(base + path)}</loc></url>`).join("\n");
      res.set({ "Cache-Control": "public, max-age=600", "X-Content-Type-Options": "nosniff" }).type("application/xml").send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      );
    } catch (error) {
      site.deps.log.error("sitemap failed", { requestId: web.requestId, error: String(error) });
      res.status(500).type("text/plain").send("The sitemap is unavailable right now.");
    }
  };
}
