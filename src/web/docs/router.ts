// The developer documentation routes: the API reference and the MCP connection guide (read-only pages).
import express, { type Router } from "express";
import { webErrors, webRoute } from "../page.ts";
import { mcpPage } from "./pages/mcp.ts";
import { referencePage } from "./pages/reference.ts";
import type { DocsSite } from "./site.ts";

export function docsRouter(site: DocsSite): Router {
  const router = express.Router();
  router.get("/docs", webRoute(site, referencePage));
  router.get("/docs/mcp", webRoute(site, mcpPage));
  router.use("/docs", webErrors(site));
  return router;
}
