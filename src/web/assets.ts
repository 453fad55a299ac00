// Client scripts (TypeScript under src/web/client/) and stylesheets (src/web/styles/), bundled with esbuild once per
// process and served from memory under content-hashed names with year-long immutable caching.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { buildSync } from "esbuild";
import express, { type Request, type Response, type Router } from "express";

/** Entry points by output name: `scripts: { site: "client/site.ts" }` serves /assets/site.<hash>.js. Paths are relative to src/web/. */
export interface AssetEntries {
  scripts?: Record<string, string>;
  styles?: Record<string, string>;
  /** Files served as they are, by their file name: `files: { "icon.svg": "styles/icon.svg" }`. */
  files?: Record<string, string>;
}

/** The assets every site shares: the one stylesheet, the base enhancements, the favicon. */
export const WEB_ASSETS: AssetEntries = {
  scripts: { site: "client/site.ts" },
  styles: { site: "styles/site.css" },
  files: { "icon.svg": "styles/icon.svg" },
};

/** Several sites' entries as one (a name declared twice is a mistake). */
export function mergeEntries(...sets: AssetEntries[]): AssetEntries {
  const merged = { scripts: {}, styles: {}, files: {} } as Required<AssetEntries>;
  for (const set of sets) {
    for (const kind of ["scripts", "styles", "files"] as const) {
      for (const [name, file] of Object.entries(set[kind] ?? {})) {
        if (name in merged[kind]) throw new Error(`Asset "${name}" is declared twice.`);
        merged[kind][name] = file;
      }
    }
  }
  return merged;
}

interface Built {
  file: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
}

const WEB_DIR = path.dirname(fileURLToPath(import.meta.url));
const FILE_TYPES: Record<string, string> = { ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2", ".ico": "image/x-icon" };
const IMMUTABLE = "public, max-age=31536000, immutable";

export class Assets {
  private readonly byName = new Map<string, Built>();
  private readonly byFile = new Map<string, Built>();

  /** Bundles every entry (synchronously: esbuild takes tens of milliseconds, once, at start-up). */
  constructor(entries: AssetEntries) {
    this.build(entries.scripts ?? {}, "js", "text/javascript; charset=utf-8");
    this.build(entries.styles ?? {}, "css", "text/css; charset=utf-8");
    for (const [name, file] of Object.entries(entries.files ?? {})) {
      const ext = path.extname(name);
      this.add(name.slice(0, -ext.length), ext.slice(1), FILE_TYPES[ext] ?? "application/octet-stream", fs.readFileSync(path.join(WEB_DIR, file)));
    }
  }

  private add(name: string, ext: string, type: string, body: Buffer): void {
    const hash = crypto.createHash("sha256").update(body).digest("hex").slice(0, 12);
    const built: Built = { file: `${name}.${hash}.${ext}`, type, body, gzip: zlib.gzipSync(body, { level: 9 }) };
    this.byName.set(`${name}.${ext}`, built);
    this.byFile.set(built.file, built);
  }

  private build(entries: Record<string, string>, ext: "js" | "css", type: string): void {
    const names = Object.keys(entries);
    if (!names.length) return;
    const result = buildSync({
      entryPoints: Object.fromEntries(names.map((name) => [name, path.join(WEB_DIR, entries[name]!)])),
      bundle: true,
      minify: true,
      format: ext === "js" ? "esm" : undefined,
      target: ["es2020", "chrome100", "firefox100", "safari15"],
      write: false,
      outdir: "/assets",
      logLevel: "silent",
    });
    for (const output of result.outputFiles) this.add(path.basename(output.path, `.${ext}`), ext, type, Buffer.from(output.contents));
  }

  /** The cache-busting URL of an asset by its plain name ("site.css", "storefront.js"); throws for an unknown one. */
  url(name: string): string {
    const built = this.byName.get(name);
    if (!built) throw new Error(`No asset named "${name}"; declare it in the asset entries.`);
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
