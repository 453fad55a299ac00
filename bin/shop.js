#!/usr/bin/env node
// The `shop` CLI entry: runs src/cli.ts with Node's own type stripping, on the project's pinned Node (the `node`
// dependency, which npx and npm scripts put first on PATH) or on whatever Node 24+ started this script.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pinned = path.join(root, "node_modules", ".bin", "node");
if (Number(process.versions.node.split(".")[0]) >= 24) {
  await import("../src/cli.ts");
} else if (existsSync(pinned)) {
  const run = spawnSync(pinned, [path.join(root, "src/cli.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
} else {
  console.error(`shop: needs Node 24 or newer (this is Node ${process.versions.node}); run \`npm ci\` first, which installs the pinned one`);
  process.exit(1);
}
