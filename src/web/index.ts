// The web door: bundled assets, the demo pictures, the admin, the developer docs and the storefront pages, mounted by the express app.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { httpError } from "../http/requests.ts";
import type { WebDeps } from "./deps.ts";
import { Assets } from "./assets.ts";
import { adminRouter } from "./admin/router.ts";
import { AdminSite } from "./admin/site.ts";
import { demoImagesRouter } from "./demo-images.ts";
import { imagesRouter } from "./images.ts";
import { docsRouter } from "./docs/router.ts";
import { DocsSite } from "./docs/site.ts";
import { webRoute } from "./page.ts";
import { storefrontRouter } from "./storefront/router.ts";
import { StorefrontSite } from "./storefront/site.ts";

/** `assets`: the built assets, read by the caller at start-up (a missing build fails the start, not the first page). */
export function webRouter(deps: WebDeps, assets = new Assets()): Router {
  const storefront = new StorefrontSite(deps, assets);
  const router = express.Router();
  router.use(assets.router());
  router.use(demoImagesRouter());
  router.use(imagesRouter(deps));
  // Before the storefront, whose last route answers every other path with its 404 page.
  router.use(adminRouter(new AdminSite(deps, assets)));
  router.use(docsRouter(new DocsSite(deps, assets)));
  router.use(storefrontRouter(storefront));
  // A page request the router cannot even read (an undecodable %-escape in the path) gets the site's 400 page too.
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next(error);
    void webRoute(storefront, async () => {
      throw httpError(error);
    })(req, res, next);
  });
  return router;
}
