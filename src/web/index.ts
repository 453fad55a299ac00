// The web door: bundled assets, the admin, the storefront pages and the payment page, mounted by the express app.
import express, { type Router } from "express";
import type { Runtime } from "../runtime.ts";
import { paymentPageRouter } from "../api/payment-page.ts";
import { Assets, mergeEntries, WEB_ASSETS } from "./assets.ts";
import { ADMIN_ASSETS } from "./admin/layout.ts";
import { adminRouter } from "./admin/router.ts";
import { AdminSite } from "./admin/site.ts";
import { STOREFRONT_ASSETS } from "./storefront/layout.ts";
import { storefrontRouter } from "./storefront/router.ts";
import { StorefrontSite } from "./storefront/site.ts";

export function webRouter(runtime: Runtime): Router {
  const assets = new Assets(mergeEntries(WEB_ASSETS, STOREFRONT_ASSETS, ADMIN_ASSETS));
  const storefront = new StorefrontSite(runtime, assets);
  const router = express.Router();
  router.use(assets.router());
  router.use(paymentPageRouter(storefront));
  // Before the storefront, whose last route answers every other path with its 404 page.
  router.use(adminRouter(new AdminSite(runtime, assets)));
  router.use(storefrontRouter(storefront));
  return router;
}
