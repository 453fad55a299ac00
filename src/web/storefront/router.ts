// The storefront routes: each one a page handler over the storefront site (src/web/page.ts does the rest).
import express, { type Router } from "express";
import { NotFound } from "../../core/errors.ts";
import { webRoute } from "../page.ts";
import { infoPage } from "./pages/info.ts";
import { servicePage, servicesPage } from "./pages/services.ts";
import type { StorefrontSite } from "./site.ts";

export function storefrontRouter(site: StorefrontSite): Router {
  const router = express.Router();
  router.get("/services", webRoute(site, servicesPage));
  router.get("/services/:slug", webRoute(site, (web) => servicePage(web, String(web.req.params.slug))));
  router.get("/info/:slug", webRoute(site, (web) => infoPage(web, String(web.req.params.slug))));
  router.use(webRoute(site, async (web) => {
    throw new NotFound(`No page ${web.req.path}.`);
  }));
  return router;
}
