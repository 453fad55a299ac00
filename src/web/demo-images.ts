// GET /demo-images/<name>.svg: the demo shop's product pictures (drawn by scripts/demo-images.ts and committed), read
// once per process and served from memory, so a fresh demo shows pictures without any image host.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Request, type Response, type Router } from "express";

const DIR = fileURLToPath(new URL("demo-images", import.meta.url));

/** The names do not change with the content, so a day's caching, not forever. */
const CACHE = "public, max-age=86400";

export function demoImagesRouter(dir = DIR): Router {
  const files = new Map<string, Buffer>();
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (name.endsWith(".svg")) files.set(name, fs.readFileSync(path.join(dir, name)));
  }
  const router = express.Router();
  router.get("/demo-images/:file", (req: Request, res: Response, next) => {
    const body = files.get(String(req.params.file));
    if (!body) return next();
    res.set({
      "Cache-Control": CACHE,
      "Content-Type": "image/svg+xml",
      "X-Content-Type-Options": "nosniff",
      // Opened on its own, a picture may style itself and nothing else.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    });
    res.send(body);
  });
  return router;
}
