// Client scripts and stylesheets as scripts/build-assets.ts built them before the server started (build/assets), read
// once per process and served from memory under content-hashed names with year-long immutable caching.
import fs from "node:fs";
import path from "node:path";
import express, { type Request, type Response, type Router } from "express";
import { ASSETS_DIR, type AssetManifest } from "./asset-entries.ts";

interface Built {
  file: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

export class Assets {
  private readonly byName = new Map<string, Built>();
  private readonly byFile = new Map<string, Built>();

  /** Reads the built assets of `dir` (default build/assets); throws one line when they were not built. */
  constructor(dir = ASSETS_DIR) {
    let manifest: AssetManifest;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as AssetManifest;
    } catch {
      throw new Error(`the web assets are not built (${path.join(dir, "manifest.json")}): run \`node scripts/build-assets.ts\` (npm start does)`);
    }
    for (const [name, { file, type }] of Object.entries(manifest)) {
      const built: Built = { file, type, body: fs.readFileSync(path.join(dir, file)), gzip: fs.readFileSync(path.join(dir, `${file}.gz`)) };
      this.byName.set(name, built);
      this.byFile.set(file, built);
    }
  }

  /** The cache-busting URL of an asset by its plain name ("site.css", "storefront.js"); throws for an unknown one. */
  url(name: string): string {
    const built = this.byName.get(name);
    if (!built) throw new Error(`No asset named "${name}"; declare it in src/web/asset-entries.ts.`);
    return `/assets/${built.file}`;
  }

  /** GET /assets/<name>.<hash>.<ext>: the bundle, gzipped when the client accepts it; other names are 404. */
  router(): Router {
    const router = express.Router();
    router.get("/assets/:file", (req: Request, res: Response) => {
      const built = this.byFile.get(String(req.params.file));
      res.set("X-Content-Type-Options", "nosniff");
      if (!built) {
        res.status(404).type("text/plain").send("Not found");
        return;
      }
      const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
      res.set({ "Cache-Control": IMMUTABLE, "Content-Type": built.type, Vary: "Accept-Encoding" });
      if (gzip) res.set("Content-Encoding", "gzip");
      res.send(gzip ? built.gzip : built.body);
    });
    return router;
  }
}
