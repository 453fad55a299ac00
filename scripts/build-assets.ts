// Bundles the web's client scripts and stylesheets (src/web/asset-entries.ts) with esbuild into build/assets, under
// content-hashed names with their gzip forms and a manifest.json the server reads (src/web/assets.ts). npm start runs
// it before the server (prestart), the tests' global setup and the benchmarks before theirs: `node scripts/build-assets.ts`.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { build } from "esbuild";
import { ASSET_ENTRIES, ASSETS_DIR, type AssetManifest } from "../src/web/asset-entries.ts";

const WEB_DIR = fileURLToPath(new URL("../src/web", import.meta.url));
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
};

/** Bundles `entries` (output name → path under src/web/) and returns each output's plain name with its contents. */
async function bundle(entries: Record<string, string>, ext: "js" | "css"): Promise<Array<[string, Uint8Array]>> {
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(WEB_DIR, file)])),
    bundle: true,
    minify: true,
    format: ext === "js" ? "esm" : undefined,
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    write: false,
    outdir: "/assets",
    logLevel: "silent",
  });
  return result.outputFiles.map((output) => [path.basename(output.path), output.contents]);
}

/** Writes a file whole or not at all (a server or test run starting meanwhile never reads half of one). */
function writeAtomically(file: string, body: Uint8Array | string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, body);
  fs.renameSync(temporary, file);
}

/** Builds every asset into `dir` (default build/assets) and removes the files an earlier build left there. */
export async function buildAssets(dir = ASSETS_DIR): Promise<AssetManifest> {
  const outputs = [
    ...(await bundle(ASSET_ENTRIES.scripts, "js")),
    ...(await bundle(ASSET_ENTRIES.styles, "css")),
    ...Object.entries(ASSET_ENTRIES.files).map(([name, file]): [string, Uint8Array] => [name, fs.readFileSync(path.join(WEB_DIR, file))]),
  ];
  fs.mkdirSync(dir, { recursive: true });
  const manifest: AssetManifest = {};
  for (const [name, body] of outputs) {
    const ext = path.extname(name);
    const hash = crypto.createHash("sha256").update(body).digest("hex").slice(0, 12);
    const file = `${name.slice(0, -ext.length)}.${hash}${ext}`;
    writeAtomically(path.join(dir, file), body);
    writeAtomically(path.join(dir, `${file}.gz`), zlib.gzipSync(body, { level: 9 }));
    manifest[name] = { file, type: TYPES[ext] ?? "application/octet-stream" };
  }
  writeAtomically(path.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const kept = new Set(["manifest.json", ...Object.values(manifest).flatMap(({ file }) => [file, `${file}.gz`])]);
  for (const stale of fs.readdirSync(dir)) if (!kept.has(stale) && !stale.endsWith(".tmp")) fs.rmSync(path.join(dir, stale), { force: true });
  return manifest;
}

if (import.meta.main) await buildAssets();
