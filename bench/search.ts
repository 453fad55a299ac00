// `npm run bench`: products.search and the storefront pages (bench/pages.ts) at 64 connections on PGlite and
// PostgreSQL, demo size and 100,000 products, next to a plain Express "hello JSON" server measured by the same script.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase, type Database } from "../src/core/db.ts";
import { migrate } from "../src/core/migrate.ts";
import { seedCatalog, seedSettings } from "../prisma/seed/demo.ts";
import { measurePages } from "./pages.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const SIZES = (process.env.BENCH_SIZES ?? "80,100000").split(",").map(Number);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
const SCENARIOS: Array<[string, object]> = [
  ["{}", {}],
  ["q", { q: "aviator" }],
  ["filters", { categorySlug: "solbriller", inStock: true, maxPriceOere: 200000, limit: 20 }],
];

interface Row {
  target: string;
  req: number;
  p50: number;
  p99: number;
  errors: number;
}

function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function stopChild(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  child.kill("SIGKILL");
}

async function load(url: string, body: object): Promise<Omit<Row, "target">> {
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    connections: CONNECTIONS,
    duration: DURATION,
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  return { req: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: failures };
}

async function prepare(kind: string, size: number): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  let database: Database;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (kind === "pglite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
    database = await openDatabase({ dataDir });
    env = { DATA_DIR: dataDir, DATABASE_URL: "" };
    cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  } else {
    const name = `shop_bench_${size}_${process.pid}`;
    const admin = await openDatabase({ databaseUrl: PG_URL });
    await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.exec(`CREATE DATABASE "${name}"`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString() });
    env = { DATABASE_URL: url.toString() };
    cleanup = async () => {
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    };
  }
  const started = Date.now();
  await migrate(database);
  await seedCatalog(database.prisma, size);
  await seedSettings(database.prisma);
  await database.close();
  console.error(`seeded ${size} products on ${kind} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { env, cleanup };
}

const rows: Row[] = [];
const hello = await startChild("bench/hello.ts", {});
await load(`http://127.0.0.1:${hello.port}/hello`, {}); // warm-up, as for the shop server
rows.push({ target: "express hello JSON (baseline)", ...(await load(`http://127.0.0.1:${hello.port}/hello`, {})) });
await stopChild(hello.child);
const baseline = rows[0]!.req;

for (const kind of DATABASES) {
  for (const size of SIZES) {
    const { env, cleanup } = await prepare(kind, size);
    const server = await startChild("bench/server.ts", {
      ...env,
      SEED: "none",
      LOG_LEVEL: "warn",
      RATE_LIMIT_ANON_PER_MIN: "1000000000",
      REDIS_URL: "",
    });
    const url = `http://127.0.0.1:${server.port}/api/v1/tools/products.search`;
    await load(url, {}); // warm-up: JIT and the read model's lazy indexes
    for (const [label, body] of SCENARIOS) {
      rows.push({ target: `products.search ${label} — ${kind}, ${size.toLocaleString("en")} products`, ...(await load(url, body)) });
      console.error(rows.at(-1));
    }
    rows.push(...(await measurePages(`http://127.0.0.1:${server.port}`, `${kind}, ${size.toLocaleString("en")} products`, CONNECTIONS, DURATION)));
    await stopChild(server.child);
    await cleanup();
  }
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const lines = [
  `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`,
  `Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per row, loopback; rate limiter on (limit raised).`,
  "",
  "| target | req/s | vs baseline | p50 ms | p99 ms | errors |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.target} | ${r.req} | ${Math.round((r.req / baseline) * 100)} % | ${r.p50} | ${r.p99} | ${r.errors} |`),
];
console.log(lines.join("\n"));
