// Generates the Prisma client offline: `prisma generate` never needs the schema engine, so any executable stands in for it.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const run = spawnSync(process.execPath, [cli, "generate", "--no-hints"], { stdio: "inherit", env });
process.exit(run.status ?? 1);
