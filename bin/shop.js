#!/usr/bin/env node
// The `shop` CLI entry: runs src/cli.ts under tsx with the project's Node.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsx = require.resolve("tsx");
// Prefer the project's pinned Node (the `node` devDependency) over whatever node started this script.
const pinned = path.join(root, "node_modules", ".bin", "node");
const node = existsSync(pinned) ? pinned : process.execPath;
const run = spawnSync(node, ["--import", tsx, path.join(root, "src/cli.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
