// `npm run bench:admin`: staff sign-in cost and whether it blocks the event loop (health-check latency during a burst
// of sign-ins, next to what synchronous scrypt would block), and admin page throughput with a staff cookie. Embedded
// database under a temporary DATA_DIR, or with BENCH_DATABASE_URL=postgres://… a throwaway database on that server;
// demo shop; BENCH_SECONDS per page row (default 5).
import crypto from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import autocannon from "autocannon";
import { buildAssets } from "../scripts/build-assets.ts";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/core/config.ts";
import { openDatabase } from "../src/core/db.ts";
import { createStaff } from "../src/tools/staff/staff-users.ts";
import { createRuntime } from "../src/runtime.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const BURST = 16;
const PASSWORD = "benchmark password";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-admin-"));
const postgres = process.env.BENCH_DATABASE_URL;
const scratch = `shop_bench_admin_${crypto.randomBytes(4).toString("hex")}`;
const server0 = postgres ? await openDatabase({ databaseUrl: postgres }) : undefined;
await server0?.exec(`CREATE DATABASE "${scratch}"`);
const databaseUrl = postgres ? Object.assign(new URL(postgres), { pathname: `/${scratch}` }).toString() : undefined;
const config = { ...loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" }), databaseUrl, redisUrl: undefined, rateLimitAnonPerMin: 1_000_000, rateLimitKeyPerMin: 1_000_000 };
await buildAssets();
const runtime = await createRuntime({ config });
const server = createApp(runtime).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** GET the login form for its nonce cookie and token, then post the credentials; the staff cookie. */
async function signIn(email: string): Promise<string> {
  const form = await fetch(`${base}/admin/login`, { headers: { accept: "text/html" } });
  const pre = form.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const response = await fetch(`${base}/admin/login`, {
    method: "POST",
    headers: { cookie: pre, "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
    body: new URLSearchParams({ _csrf: csrf, email, password: PASSWORD }),
    redirect: "manual",
  });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  return response.headers.getSetCookie().find((line) => line.startsWith("shop_admin="))!.split(";")[0]!;
}

try {
  const emails = Array.from({ length: BURST }, (_, i) => `bench${i}@example.dk`);
  for (const email of emails) await createStaff(runtime.database.prisma, { email, password: PASSWORD, scopes: ["*"] });

  const sequential: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await signIn(emails[i % emails.length]!);
    sequential.push(performance.now() - start);
  }

  /** Polls /healthz and samples the event loop's delay while `work` runs. */
  async function watch(work: () => Promise<unknown>) {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const start = performance.now();
        await fetch(`${base}/healthz`);
        health.push(performance.now() - start);
      }
    })();
    delay.enable();
    const start = performance.now();
    await work();
    const took = performance.now() - start;
    delay.disable();
    polling = false;
    await poller;
    return { took, health, delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6 };
  }

  const idle = await watch(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
  const burst = await watch(() => Promise.all(emails.map((email) => signIn(email))));

  const syncStart = performance.now();
  crypto.scryptSync(PASSWORD, crypto.randomBytes(16), 32);
  const syncScrypt = performance.now() - syncStart;

  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${postgres ? "PostgreSQL" : "embedded PGlite"}, demo shop`);
  console.log(`sign-in (form GET + POST, scrypt verify), sequential: p50 ${ms(percentile(sequential, 50))}, max ${ms(Math.max(...sequential))}`);
  for (const [label, run] of [["idle, 1 s", idle], [`${BURST} parallel sign-ins`, burst]] as const) {
    console.log(
      `${label}: ${ms(run.took)}; /healthz meanwhile (${run.health.length} requests) p50 ${ms(percentile(run.health, 50))}, ` +
        `max ${ms(Math.max(...run.health))}; event-loop delay p99 ${ms(run.delayP99)}, max ${ms(run.delayMax)}`,
    );
  }
  console.log(`one synchronous scrypt would block the loop ${ms(syncScrypt)} (× ${BURST} = ${ms(syncScrypt * BURST)})`);

  const cookie = await signIn(emails[0]!);
  const product = await runtime.database.prisma.product.findFirstOrThrow({ where: { deletedAt: null }, orderBy: { slug: "asc" } });
  console.log("\n| page (8 connections) | req/s | p50 ms | p99 ms | errors |\n|---|---:|---:|---:|---:|");
  for (const page of ["/admin", "/admin/orders", "/admin/products", `/admin/products/${product.slug}`, "/admin/audit", "/admin/login"]) {
    // The login page is measured signed out (signed in it redirects to the dashboard).
    const headers = page === "/admin/login" ? { accept: "text/html" } : { cookie, accept: "text/html" };
    const result = await autocannon({ url: `${base}${page}`, connections: 8, duration: SECONDS, headers });
    const errors = result.errors + result.non2xx;
    console.log(`| GET ${page} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} |`);
  }
} finally {
  server.close();
  await runtime.close();
  await server0?.exec(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
  await server0?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
