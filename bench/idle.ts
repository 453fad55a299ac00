// `npm run bench:idle`: the idle RSS of the benchmark server, started IDLE_RUNS times (default 6) as npm run bench starts
// it (npm start's environment and Node options) on a catalogue seeded once (80 products, kept under the system temp
// directory between runs): VmRSS when it prints READY, 1 s later (what npm run bench reports) and 5 s later, and the
// start-up peak (VmHWM); median, min–max and every run. The kind "first" is a shop's first start instead: src/main.ts
// as npm start runs it on a fresh PGlite data directory with the demo seed. Each start also reports the ms until it was
// ready and the CPU ms it had used by then (all its threads: steadier than the wall time on a shared machine).
// IDLE_DATABASES (default "first,pglite,postgres"), BENCH_DATABASE_URL; IDLE_NODE_OPTIONS adds options for an
// experiment (e.g. "--max-semi-space-size=8").
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../src/core/db.ts";
import { migrate } from "../src/core/migrate.ts";
import { seedCatalog, seedSettings } from "../prisma/seed/demo.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { serverEnv, serverNodeOptions } from "./node-options.ts";

const RUNS = Number(process.env.IDLE_RUNS ?? 6);
const DATABASES = (process.env.IDLE_DATABASES ?? "first,pglite,postgres").split(",");
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const EXTRA = (process.env.IDLE_NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean);
const SEEDED = path.join(os.tmpdir(), "shop-bench-idle");

/** The server's environment for a catalogue seeded by an earlier run, or seeded now. */
async function seeded(kind: string): Promise<Record<string, string>> {
  const marker = path.join(SEEDED, `${kind}.seeded`);
  const pgUrl = new URL(PG_URL);
  pgUrl.pathname = "/shop_bench_idle";
  const dataDir = path.join(SEEDED, "pglite");
  const env: Record<string, string> = kind === "pglite" ? { DATA_DIR: dataDir, DATABASE_URL: "" } : { DATABASE_URL: pgUrl.toString() };
  if (fs.existsSync(marker)) return env;
  let database: Database;
  if (kind === "pglite") {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    database = await openDatabase({ dataDir });
  } else {
    const admin = await openDatabase({ databaseUrl: PG_URL });
    await admin.exec(`DROP DATABASE IF EXISTS "shop_bench_idle" WITH (FORCE)`);
    await admin.exec(`CREATE DATABASE "shop_bench_idle"`);
    await admin.close();
    database = await openDatabase({ databaseUrl: env.DATABASE_URL });
  }
  await migrate(database);
  await seedCatalog(database.prisma, 80);
  await seedSettings(database.prisma);
  await database.close();
  fs.writeFileSync(marker, "");
  return env;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const statusMb = (pid: number, field: string) =>
  Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

/** A first start: a fresh data directory, the demo seed, the server npm start runs. */
function firstStart(): { env: Record<string, string>; script: string; ready: RegExp } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-first-"));
  return { env: { DATA_DIR: dataDir, DATABASE_URL: "", SEED: "demo", PORT: "0", HOST: "127.0.0.1" }, script: "src/main.ts", ready: /"message":"listening on/ };
}

/** CPU ms (user + system, all threads) the process has used (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One start: [RSS when ready, +1 s, +5 s, peak] in MB, then the ms until it was ready and the CPU ms it took. */
async function once(env: Record<string, string>, script = "bench/server.ts", ready = /READY \d+/): Promise<number[]> {
  const started = performance.now();
  const child = spawn(process.execPath, [...serverNodeOptions(), ...EXTRA, script], {
    env: { ...process.env, ...serverEnv(), SEED: "none", ...env, LOG_LEVEL: "warn", REDIS_URL: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (ready.test(out)) resolve();
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const readyMs = Math.round(performance.now() - started);
  const readyCpuMs = cpuMs(child.pid!);
  const values = [statusMb(child.pid!, "VmRSS")];
  await sleep(1000);
  values.push(statusMb(child.pid!, "VmRSS"));
  await sleep(4000);
  values.push(statusMb(child.pid!, "VmRSS"), statusMb(child.pid!, "VmHWM"));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(5000)]);
  child.kill("SIGKILL");
  if (env.SEED === "demo") fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
  return [...values, readyMs, readyCpuMs];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

// The server reads the web assets a build wrote, as npm start builds them first.
await buildAssets();
console.log(`node ${[...serverNodeOptions(), ...EXTRA].join(" ")}; env ${JSON.stringify(serverEnv())}`);
for (const kind of DATABASES) {
  const runs: number[][] = [];
  if (kind === "first") {
    for (let run = 0; run < RUNS; run++) {
      const { env, script, ready } = firstStart();
      runs.push(await once(env, script, ready));
    }
  } else {
    const env = await seeded(kind);
    for (let run = 0; run < RUNS; run++) runs.push(await once(env));
  }
  console.log(`${kind === "first" ? "first start (pglite, demo seed)" : kind}, ${RUNS} runs, MB; until ready: ms, CPU ms:`);
  ["READY", "+1 s", "+5 s", "peak", "ms", "CPU"].forEach((label, column) => {
    const values = runs.map((run) => run[column]!);
    console.log(`  ${label.padEnd(5)} median ${median(values)} (${Math.min(...values)}–${Math.max(...values)}) [${values.join(" ")}]`);
  });
}
