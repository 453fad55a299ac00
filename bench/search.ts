// `npm run bench`: named targets (REST and MCP calls of the same tools, the storefront pages of bench/pages.ts) on PGlite and PostgreSQL, demo size and
// 100,000 products, next to a plain Express "hello JSON" server measured by the same script on the same machine; the
// server's RSS idle and after load; REST/MCP ratios (robust to other load on the machine). Write rows (bench/checkout.ts):
// a full UCP checkout and a full ACP checkout against one REST orders.create, each as whole iterations from a fixed
// number of loops.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase, type Database } from "../src/core/db.ts";
import { migrate } from "../src/core/migrate.ts";
import { seedCatalog, seedSettings } from "../prisma/seed/demo.ts";
import { catalogFile } from "./catalog-file.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { serverEnv, serverNodeOptions } from "./node-options.ts";
import { pageTargets } from "./pages.ts";
import { prepareWrites, WRITE_NAMES, writeTargets, type WriteFixture, type WriteTarget } from "./checkout.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
/** Connections of the read rows (BENCH_CONNECTIONS; the catalogue-size runs of docs/benchmarks.md use 16). */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** Write rows run this many iterations at once (a closed loop: each starts the next when its last one ends). */
const WRITERS = 8;
const SIZES = (process.env.BENCH_SIZES ?? "80,100000").split(",").map(Number);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
/**
 * BENCH_KEEP=<prefix>: each PostgreSQL catalogue lives in the database <prefix>_<size>, which is kept after the run and
 * reused by the next one (migrated, not imported again: a million products take ~10 minutes to import). The import
 * column of the size table is then empty for the sizes reused.
 */
const KEEP = process.env.BENCH_KEEP;
/** Every request of every row (the baseline's too) says what Node's fetch says over http://: it takes gzip and deflate. */
const ACCEPT_ENCODING = "gzip, deflate";

/** One thing to load: a request and the name it is reported under. Add rows here (storefront pages, other tools). */
interface Target {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A new body per request (the "varied" rows: inputs drawn at random, so the result cache seldom has the answer). */
  vary?: () => unknown;
}

const MODERN = "2026-07-28";
const rest = (label: string, tool: string, input: object): Target => ({ name: `REST ${tool} ${label}`, method: "POST", path: `/api/v1/tools/${tool}`, body: input });
const mcp = (label: string, tool: string, input: object): Target => ({
  name: `MCP ${tool} ${label}`,
  method: "POST",
  path: "/api/mcp",
  body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: input } },
});
const mcpModern = (label: string, tool: string, input: object): Target => ({
  name: `MCP ${MODERN} ${tool} ${label}`,
  method: "POST",
  path: "/api/mcp",
  headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": tool },
  body: {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: tool,
      arguments: input,
      _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } },
    },
  },
});

const SEARCHES: Array<[string, object]> = [
  ["{}", {}],
  ["q", { q: "aviator" }],
  ["filters", { categorySlug: "solbriller", inStock: true, maxPriceOere: 200000, limit: 20 }],
];
const int = (from: number, to: number) => from + Math.floor(Math.random() * (to - from + 1));
const pickOne = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const WORDS = ["aviator", "ray-ban", "oakley", "panto", "clubmaster", "wayfarer", "sommer", "vinter", "fjord", "klar", "grøn", "sort", "brun", "junior", "monthly", "etui", "lindberg", "prada", "gucci", "slim", "bold", "coast", "studio", "oversize", "browline", "cat-eye", "sport", "polariseret", "ørgreen", "persol"];
const CATEGORIES = ["solbriller", "briller", "sportsbriller", "boernebriller", "blaalysbriller", "kontaktlinser", "tilbehoer"];
/** The same three searches with inputs drawn per request: what a database search costs when the answer is not cached. */
const VARIED: Array<[string, () => object]> = [
  ["{} varied", () => ({ offset: int(0, 50) * 20 })],
  ["q varied", () => ({ q: int(0, 2) ? pickOne(WORDS) : `${pickOne(WORDS)} ${pickOne(WORDS)}`, limit: int(1, 100) })],
  ["filters varied", () => ({ categorySlug: pickOne(CATEGORIES), inStock: int(0, 1) === 1, maxPriceOere: int(500, 3000) * 100, limit: 20 })],
];
/** BENCH_ONLY=<regex> keeps only the targets whose name matches (quick reruns). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const TARGETS: Target[] = [
  ...SEARCHES.flatMap(([label, input]) => [rest(label, "products.search", input), mcp(label, "products.search", input)]),
  ...VARIED.map(([label, vary]) => ({ ...rest(label, "products.search", {}), vary })),
  mcpModern("{}", "products.search", {}),
  rest("", "categories.list", {}),
  mcp("", "categories.list", {}),
].filter((target) => !ONLY || ONLY.test(target.name));
const WRITES = Object.values(WRITE_NAMES).some((name) => !ONLY || ONLY.test(name));

interface Row {
  target: string;
  req: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's user + system CPU per answered request, in µs: robust to other load on a shared machine. */
  cpuUs: number;
  /** Bytes per response, headers included (as received: compressed when the server compressed). */
  bytes: number;
}

/** Starts a child that prints READY <port>; the shop server (`server`) runs as `npm start` runs it (bench/node-options.ts). */
function startChild(script: string, env: Record<string, string>, server = false): Promise<{ child: ChildProcess; port: number }> {
  const options = server ? serverNodeOptions() : [];
  const child = spawn(process.execPath, [...options, script], { env: { ...process.env, ...(server ? serverEnv() : {}), ...env }, stdio: ["ignore", "pipe", "inherit"] });
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

/** Resident set size of a process in MB (Linux /proc), after a moment to settle. */
async function rssMb(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** User + system CPU seconds a process has used (Linux /proc, clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function load(origin: string, target: Target, pid: number): Promise<Omit<Row, "target">> {
  const cpuBefore = cpuSeconds(pid);
  const vary = target.vary;
  const result = await autocannon({
    url: origin + target.path,
    method: target.method,
    headers: { "content-type": "application/json", "accept-encoding": ACCEPT_ENCODING, ...target.headers },
    ...(target.body === undefined ? {} : { body: JSON.stringify(target.body) }),
    ...(vary && { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify(vary()) }) }] }),
    connections: CONNECTIONS,
    duration: DURATION,
  });
  const cpu = cpuSeconds(pid) - cpuBefore;
  const failures = result.errors + result.timeouts + result.non2xx;
  const answered = Math.max(1, result.requests.total);
  const cpuUs = Math.round((cpu * 1e6) / answered);
  return { req: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: failures, cpuUs, bytes: Math.round(result.throughput.total / answered) };
}

/** Runs `target` from WRITERS loops for `seconds`; a row per iteration: iterations/s, latency of a whole iteration, server CPU per iteration. */
async function drive(target: WriteTarget, pid: number, seconds = DURATION): Promise<Omit<Row, "target">> {
  const cpuBefore = cpuSeconds(pid);
  const end = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      try {
        const read = await target.run(); // not `bytes += await …`: that reads `bytes` before the await
        bytes += read;
        latencies.push(performance.now() - start);
      } catch (error) {
        if (errors++ === 0) console.error(`${target.name}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, loop));
  const cpu = cpuSeconds(pid) - cpuBefore;
  const done = Math.max(1, latencies.length);
  const sorted = latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0);
  return { req: Math.round(latencies.length / seconds), p50: at(50), p99: at(99), errors, cpuUs: Math.round((cpu * 1e6) / done), bytes: Math.round(bytes / done) };
}

/** Runs `shop import products FILE` as the owner would, on the database of `env`; products per second. */
async function importCatalog(file: string, env: Record<string, string>): Promise<{ created: number; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["bin/shop.js", "import", "products", file], { env: { ...process.env, ...env, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  const seconds = (performance.now() - started) / 1000;
  const created = Number(/Imported (\d+) products/.exec(out)?.[1] ?? NaN);
  if (code !== 0 || !Number.isFinite(created)) throw new Error(`shop import products exited with ${code}: ${out.slice(0, 500)}`);
  return { created, seconds };
}

/** Import figures per "kind, size" (PostgreSQL rows are seeded by the import command). */
const imports = new Map<string, { created: number; seconds: number }>();

async function prepare(kind: string, size: number): Promise<{ env: Record<string, string>; cleanup: () => Promise<void>; writes?: WriteFixture }> {
  let database: Database;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let reused = false;
  if (kind === "pglite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
    database = await openDatabase({ dataDir });
    env = { DATA_DIR: dataDir, DATABASE_URL: "" };
    cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  } else {
    const name = KEEP ? `${KEEP}_${size}` : `shop_bench_${size}_${process.pid}`;
    const admin = await openDatabase({ databaseUrl: PG_URL });
    const kept = KEEP !== undefined && (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).length > 0;
    if (!kept) {
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.exec(`CREATE DATABASE "${name}"`);
    }
    reused = kept;
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString() });
    env = { DATABASE_URL: url.toString() };
    cleanup = async () => {
      if (!KEEP) await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    };
  }
  const started = Date.now();
  await migrate(database);
  if (kind === "postgres" && reused) {
    await database.exec("ANALYZE");
  } else if (kind === "postgres") {
    // The catalogue comes in as a shop owner's would: `shop import products` of a JSON Lines file.
    const file = await catalogFile(size);
    const imported = await importCatalog(file, env);
    imports.set(`${kind}, ${size}`, imported);
    console.error(`imported ${imported.created} products in ${imported.seconds.toFixed(1)} s (${Math.round(imported.created / imported.seconds)}/s)`);
    await database.exec("ANALYZE");
  } else await seedCatalog(database.prisma, size);
  await seedSettings(database.prisma);
  const writes = WRITES ? await prepareWrites(database.prisma) : undefined;
  await database.close();
  console.error(`seeded ${size} products on ${kind} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { env, cleanup, writes };
}

// The server reads the web assets a build wrote, as npm start builds them first.
await buildAssets();
const rows: Row[] = [];
const notes: string[] = [];
/** Per database and size, what the catalogue-size table compares against the smallest size's row. */
const sizes: Array<{ kind: string; size: number; measured: Map<string, Row>; idle: number; loaded: number }> = [];
const hello = await startChild("bench/hello.ts", {});
const helloTarget: Target = { name: "express hello JSON (baseline)", method: "POST", path: "/hello", body: {} };
await load(`http://127.0.0.1:${hello.port}`, helloTarget, hello.child.pid!); // warm-up, as for the shop server
rows.push({ target: helloTarget.name, ...(await load(`http://127.0.0.1:${hello.port}`, helloTarget, hello.child.pid!)) });
await stopChild(hello.child);
const baseline = rows[0]!.req;
const baselineCpu = rows[0]!.cpuUs;

for (const kind of DATABASES) {
  for (const size of SIZES) {
    const { env, cleanup, writes } = await prepare(kind, size);
    const server = await startChild("bench/server.ts", {
      ...env,
      SEED: "none",
      LOG_LEVEL: "warn",
      RATE_LIMIT_ANON_PER_MIN: "1000000000",
      RATE_LIMIT_KEY_PER_MIN: "1000000000",
      UCP_TEST_MODE: "1",
      REDIS_URL: "",
    }, true);
    const origin = `http://127.0.0.1:${server.port}`;
    const where = `${kind}, ${size.toLocaleString("en")} products`;
    const idle = await rssMb(server.child.pid!);
    const measured = new Map<string, Row>();
    const pages = (await pageTargets(origin)).filter((target) => !ONLY || ONLY.test(target.name));
    for (const target of [...TARGETS, ...pages]) {
      await load(origin, { ...target }, server.child.pid!).catch(() => undefined); // warm-up: JIT, lazy indexes, caches
      const row = { target: `${target.name} — ${where}`, ...(await load(origin, target, server.child.pid!)) };
      measured.set(target.name, row);
      rows.push(row);
      console.error({ ...row, load: os.loadavg()[0]!.toFixed(2) });
    }
    for (const target of writes ? writeTargets(origin, writes).filter((target) => !ONLY || ONLY.test(target.name)) : []) {
      await drive(target, server.child.pid!, Math.min(DURATION, 3)); // warm-up
      const row = { target: `${target.name} — ${where}`, ...(await drive(target, server.child.pid!)) };
      measured.set(target.name, row);
      rows.push(row);
      console.error({ ...row, load: os.loadavg()[0]!.toFixed(2) });
    }
    const checkout = measured.get(WRITE_NAMES.ucp);
    const order = measured.get(WRITE_NAMES.orders);
    if (checkout && order) {
      const ratio = (a: number, b: number) => (a / b).toFixed(2);
      notes.push(`${where}: one UCP checkout costs ${ratio(order.req, checkout.req)} orders.create by req/s (${ratio(checkout.cpuUs, order.cpuUs)} by server CPU per iteration), p50 ${order.p50} → ${checkout.p50} ms, p99 ${order.p99} → ${checkout.p99} ms.`);
    }
    const acp = measured.get(WRITE_NAMES.acp);
    if (acp && order) {
      const ratio = (a: number, b: number) => (a / b).toFixed(2);
      notes.push(`${where}: one ACP checkout costs ${ratio(order.req, acp.req)} orders.create by req/s (${ratio(acp.cpuUs, order.cpuUs)} by server CPU per iteration), p50 ${order.p50} → ${acp.p50} ms, p99 ${order.p99} → ${acp.p99} ms.`);
    }
    const loaded = await rssMb(server.child.pid!);
    const ratios = TARGETS.filter((target) => target.name.startsWith("REST ")).flatMap((target) => {
      const restRow = measured.get(target.name);
      if (!restRow) return [];
      // Both MCP eras against the same REST row; req/s, and server CPU per request (steadier on a shared machine).
      return [["MCP ", "MCP/REST"], [`MCP ${MODERN} `, `MCP ${MODERN}/REST`]].flatMap(([prefix, label]) => {
        const mcpRow = measured.get(target.name.replace(/^REST /, prefix!));
        if (!mcpRow) return [];
        const percent = (a: number, b: number) => Math.round((a / b) * 100);
        return [`${target.name.slice(5)}: ${label} req/s ${percent(mcpRow.req, restRow.req)} % (by server CPU per request ${percent(restRow.cpuUs, mcpRow.cpuUs)} %), p99 ${restRow.p99} → ${mcpRow.p99} ms`];
      });
    });
    notes.push(`${where}: RSS ${idle} MB idle, ${loaded} MB after load.${ratios.length ? ` ${ratios.join("; ")}.` : ""}`);
    sizes.push({ kind, size, measured, idle, loaded });
    await stopChild(server.child);
    await cleanup();
  }
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const lines = [
  `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`,
  `Load: autocannon, ${CONNECTIONS} connections (write rows: ${WRITERS} loops of whole iterations, req/s = iterations/s, bytes = response bodies per iteration), ${DURATION} s per row, loopback, \`accept-encoding: ${ACCEPT_ENCODING}\` on every request (as Node's fetch sends); rate limiter on (limit raised).`,
  "",
  `Load average (1 min) at the end: ${os.loadavg()[0]!.toFixed(2)}. Server CPU µs/req: the server process's user + system CPU per answered request;`,
  "its ratio to the baseline's predicts the req/s ratio on a quiet machine, where req/s here also depend on other load.",
  "",
  "| target | req/s | vs baseline | p50 ms | p99 ms | errors | server CPU µs/req | baseline/CPU | bytes/response |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.target} | ${r.req} | ${Math.round((r.req / baseline) * 100)} % | ${r.p50} | ${r.p99} | ${r.errors} | ${r.cpuUs} | ${Math.round((baselineCpu / r.cpuUs) * 100)} % | ${r.bytes} |`,
  ),
  "",
  ...notes.map((note) => `- ${note}`),
  ...sizeTable(),
];
console.log(lines.join("\n"));

/**
 * The catalogue-size table: per database, each size against its smallest (× that row's figure): the import rate, the
 * server CPU of a sale, the uncached searches, RSS.
 */
function sizeTable(): string[] {
  const lines: string[] = [];
  for (const kind of DATABASES) {
    const runs = sizes.filter((run) => run.kind === kind).sort((a, b) => a.size - b.size);
    if (runs.length < 2) continue;
    const base = runs[0]!;
    const times = (value: number | undefined, of: number | undefined) => (value === undefined ? "–" : of ? `${value} (${(value / of).toFixed(2)} ×)` : `${value}`);
    const cpu = (run: (typeof runs)[number], name: string) => run.measured.get(name)?.cpuUs;
    const search = (run: (typeof runs)[number], label: string) => {
      const row = run.measured.get(`REST products.search ${label}`);
      return row ? `${row.req} / ${row.p99}` : "–";
    };
    lines.push(
      "",
      `Catalogue sizes on ${kind}, each against ${base.size.toLocaleString("en")} products (search: req/s / p99 ms at ${CONNECTIONS} connections, inputs drawn per request):`,
      "",
      "| products | import products/s | orders.create server CPU µs | UCP checkout server CPU µs | search {} | search q | search filters | RSS idle MB | RSS after load MB |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...runs.map((run) => {
        const imported = imports.get(`${kind}, ${run.size}`);
        const rate = imported ? Math.round(imported.created / imported.seconds).toLocaleString("en") : "–";
        return `| ${run.size.toLocaleString("en")} | ${rate} | ${times(cpu(run, WRITE_NAMES.orders), cpu(base, WRITE_NAMES.orders))} | ${times(cpu(run, WRITE_NAMES.ucp), cpu(base, WRITE_NAMES.ucp))} | ${search(run, "{} varied")} | ${search(run, "q varied")} | ${search(run, "filters varied")} | ${times(run.idle, base.idle)} | ${run.loaded} |`;
      }),
    );
  }
  return lines;
}

