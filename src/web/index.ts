// The web door: bundled assets, the storefront pages and the payment page, mounted by the express app.
import express, { type Router } from "express";
import type { Runtime } from "../runtime.ts";
import { paymentPageRouter } from "../api/payment-page.ts";
import { Assets, mergeEntries, WEB_ASSETS } from "./assets.ts";
import { STOREFRONT_ASSETS } from "./storefront/layout.ts";
import { storefrontRouter } from "./storefront/router.ts";
import { StorefrontSite } from "./storefront/site.ts";

export function webRouter(runtime: Runtime): Router {
  const assets = new Assets(mergeEntries(WEB_ASSETS, STOREFRONT_ASSETS));
  const storefront = new StorefrontSite(runtime, assets);
  const router = express.Router();
  router.use(assets.router());
  router.use(paymentPageRouter(storefront));
  router.use(storefrontRouter(storefront));
  return router;
}
