// `npm run bench:chat`: the storefront assistant at 1, 50 and 200 concurrent chats over socket.io, the shop in a child
// process (PGlite, demo shop), a scripted model streaming at a fixed token rate in another (bench/chat-model.ts). Each turn is one
// products_search step and one streamed answer. Measures the server's added latency to first token, chunks/s, the
// server's time per tool step, its CPU time per chunk and per turn (vary BENCH_TOKENS to read the two apart), its
// event-loop delay (how long ready work waited for the loop: saturation), its RSS, the CPU of V8's helper threads in it
// and how long its threads waited for a CPU, this process's CPU and loop delay and the model process's CPU (the
// clients and the model share the machine with the server) and the load average (the machine may be shared).
// BENCH_CHATS, BENCH_WARMUP, BENCH_TURNS, BENCH_TOKEN_MS, BENCH_TOKENS, BENCH_SPREAD_MS, BENCH_DATABASE (pglite | postgres) and
// BENCH_DATABASE_URL tune it. Times that cross processes are absolute (performance.timeOrigin + now).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { buildAssets } from "../scripts/build-assets.ts";
import { openDatabase } from "../src/core/db.ts";
import type { ModelTiming } from "./chat-model.ts";
import { serverEnv, serverNodeOptions } from "./node-options.ts";

const LEVELS = (process.env.BENCH_CHATS ?? "1,50,200").split(",").map(Number);
/**
 * Levels run first and reported as warm-up: a server that has answered a few hundred turns has its hot paths compiled
 * (the SDK's stream stages, the socket writes); until then a turn costs up to twice the CPU, which is not what a shop
 * that has been up for a minute sees. "" skips the warm-up.
 */
const WARMUP = (process.env.BENCH_WARMUP ?? "50").split(",").filter(Boolean).map(Number);
const TURNS = Number(process.env.BENCH_TURNS ?? 4);
const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 20);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 60);
/** Chats start spread evenly over this many ms (people do not press enter in the same millisecond); 0 = all at once. */
const SPREAD_MS = Number(process.env.BENCH_SPREAD_MS ?? 1000);
/** `pglite` (default, a fresh data dir) or `postgres` (a fresh database on BENCH_DATABASE_URL). */
const DATABASE = process.env.BENCH_DATABASE ?? "pglite";
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** How often the REST probe searches while the chats run. */
const PROBE_MS = 20;
const ANSWER = Array.from({ length: TOKENS }, (_, i) => `ord${i}`).join(" ");

interface Frame {
  type: string;
  requestId: string;
  chunk?: { type: string; delta?: string };
}

interface TurnResult {
  text: string;
  ok: boolean;
  /** The error frame's text, when the turn failed. */
  error?: string;
  chunks: number;
  /** When the first text-delta frame arrived (absolute ms, as the model process reports its times). */
  firstTextAt: number | undefined;
}

interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** Lines the server prints after READY (its event-loop delay reports), for loopDelay(). */
const serverLines: string[] = [];

/** The server's event-loop delay since the previous call (bench/server.ts answers SIGUSR2). */
async function loopDelay(child: ChildProcess): Promise<LoopDelay> {
  const seen = serverLines.length;
  child.kill("SIGUSR2");
  for (let waited = 0; waited < 5000 && serverLines.length === seen; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  const line = serverLines.slice(seen).find((text) => text.startsWith("LOOP "));
  return line ? (JSON.parse(line.slice(5)) as LoopDelay) : { p50: NaN, p99: NaN, max: NaN };
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...serverNodeOptions(), "bench/server.ts"], { env: { ...process.env, ...serverEnv(), ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let pending = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        const ready = /^READY (\d+)/.exec(line);
        if (ready) resolve({ child, port: Number(ready[1]) });
        else serverLines.push(line);
      }
    });
    child.on("exit", (code) => reject(new Error(`bench/server.ts exited with ${code}`)));
  });
}

/** User + system CPU seconds the process (or with `thread`, one of its threads) has used (Linux /proc). */
function cpuSeconds(pid: number, thread?: number): number {
  const fields = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

type ThreadTimes = Map<string, { name: string; cpuMs: number; waitMs: number }>;

/**
 * Per thread of a process (by thread id): its name, ms on a CPU and ms runnable but waiting for one (Linux
 * /proc/<pid>/task/<tid>/schedstat). The wait is what sharing the cores (with the server's other threads, the clients
 * and the model) costs each thread; V8's helper threads ("V8Worker": parallel and concurrent GC, background
 * compilation) show apart. Empty where the kernel keeps no schedstat.
 */
function threadTimes(pid: number): ThreadTimes {
  const times: ThreadTimes = new Map();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const [cpuNs, waitNs] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
      times.set(tid, { name: fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim(), cpuMs: cpuNs! / 1e6, waitMs: waitNs! / 1e6 });
    } catch {
      // The thread ended meanwhile, or the kernel keeps no schedstat.
    }
  }
  return times;
}

/**
 * What the server's threads did since `before` (threadTimes): all threads' run-queue wait, V8's helpers' CPU, in ms
 * (NaN without schedstat).
 */
function threadDelta(before: ThreadTimes, after: ThreadTimes): { waitMs: number; helpersMs: number } {
  if (after.size === 0) return { waitMs: NaN, helpersMs: NaN };
  let waitMs = 0;
  let helpersMs = 0;
  for (const [tid, now] of after) {
    const then = before.get(tid) ?? { cpuMs: 0, waitMs: 0 };
    waitMs += now.waitMs - then.waitMs;
    if (now.name.startsWith("V8Worker")) helpersMs += now.cpuMs - then.cpuMs;
  }
  return { waitMs, helpersMs };
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function newSession(base: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/session`, { method: "POST" });
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

function connect(base: string, cookie: string): Promise<Socket> {
  const socket = io(`${base}/storefront`, { transports: ["websocket"], forceNew: true, reconnection: false, extraHeaders: { cookie } });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

function turn(socket: Socket, chatId: string, text: string, requestId: string): Promise<TurnResult> {
  const result: TurnResult = { text: "", ok: false, chunks: 0, firstTextAt: undefined };
  return new Promise((resolve) => {
    const onFrame = (frame: Frame) => {
      if (frame.requestId !== requestId) return;
      if (frame.type === "chunk") {
        result.chunks++;
        if (frame.chunk?.type === "text-delta") {
          result.firstTextAt ??= performance.timeOrigin + performance.now();
          result.text += frame.chunk.delta ?? "";
        }
        return;
      }
      result.ok = frame.type === "end";
      if (frame.type === "error") result.error = (frame as { errorText?: string }).errorText;
      socket.off("chat", onFrame);
      resolve(result);
    };
    socket.on("chat", onFrame);
    socket.emit("chat", { type: "send", requestId, id: chatId, trigger: "submit-message", messages: [{ id: requestId, role: "user", parts: [{ type: "text", text }] }], headers: {}, body: {} });
  });
}

/**
 * A shopper browsing while others chat: `products.search` over REST every PROBE_MS, one at a time, for as long as the
 * level runs. Its latency shows whether chat streaming delays the rest of the shop (requests share the server's loop).
 */
function restProbe(base: string): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${base}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"q":"briller","limit":5}' });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The server's DATABASE_URL ("" = embedded PGlite in DATA_DIR) and how to remove it afterwards. */
async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (DATABASE !== "postgres") return { url: "", drop: async () => undefined };
  const name = `shop_bench_chat_${process.pid}`;
  const admin = await openDatabase({ databaseUrl: PG_URL });
  await admin.exec(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    },
  };
}

/** The scripted model in its own process (bench/chat-model.ts); `timings()` takes its request times since the last call. */
async function startModel(): Promise<{ url: string; pid: number; timings(): Promise<ModelTiming[]>; close(): void }> {
  const env = { ...process.env, BENCH_TOKEN_MS: String(TOKEN_MS), BENCH_ANSWER: ANSWER };
  const child = spawn(process.execPath, ["bench/chat-model.ts"], { env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`bench/chat-model.ts exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    timings: () =>
      new Promise((resolve) => {
        child.once("message", (message) => resolve(message as ModelTiming[]));
        child.send("timings");
      }),
    close: () => child.disconnect(),
  };
}

/** This process's own loop delay (the socket.io clients live here): a busy bench delays what it measures too. */
const benchLoop = monitorEventLoopDelay({ resolution: 1 });
benchLoop.enable();

async function main() {
  const model = await startModel();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-chat-"));
  const database = await benchDatabase();
  const { child, port } = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    REDIS_URL: "",
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: model.url,
    OPENAI_API_STYLE: "chat",
    CHAT_TURNS_PER_MIN: "1000000",
    RATE_LIMIT_ANON_PER_MIN: "1000000",
    RATE_LIMIT_KEY_PER_MIN: "1000000",
    LOG_LEVEL: "warn",
  });
  const base = `http://127.0.0.1:${port}`;
  const rows: string[] = [];
  try {
    const levels = [...WARMUP.map((chats) => ({ chats, warmUp: true })), ...LEVELS.map((chats) => ({ chats, warmUp: false }))];
    for (const [level, { chats, warmUp }] of levels.entries()) {
      await model.timings();
      const sockets = await Promise.all(Array.from({ length: chats }, async () => connect(base, await newSession(base))));
      let peakRss = rssMiB(child.pid!);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(child.pid!))), 100);
      await loopDelay(child);
      benchLoop.reset();
      const started = performance.now();
      const cpuBefore = cpuSeconds(child.pid!);
      const mainCpuBefore = cpuSeconds(child.pid!, child.pid!);
      const threadsBefore = threadTimes(child.pid!);
      const modelCpuBefore = cpuSeconds(model.pid);
      const benchCpuBefore = process.cpuUsage();
      const results: Array<TurnResult & { text: string; label: string }> = [];
      const probe = restProbe(base);
      await Promise.all(
        sockets.map(async (socket, i) => {
          await new Promise((resolve) => setTimeout(resolve, (i * SPREAD_MS) / chats));
          for (let t = 0; t < TURNS; t++) {
            const label = `bench ${level} ${i} ${t}`;
            results.push({ ...(await turn(socket, `bench-${level}-${i}`, label, `r${level}-${i}-${t}`)), label });
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const restMs = await probe.stop();
      const cpu = cpuSeconds(child.pid!) - cpuBefore;
      const mainCpu = cpuSeconds(child.pid!, child.pid!) - mainCpuBefore;
      const threads = threadDelta(threadsBefore, threadTimes(child.pid!));
      const modelCpu = cpuSeconds(model.pid) - modelCpuBefore;
      const benchCpu = process.cpuUsage(benchCpuBefore);
      const loop = await loopDelay(child);
      const clientLoopP99 = round(benchLoop.percentile(99) / 1e6);
      clearInterval(sampler);
      for (const socket of sockets) socket.close();

      const byTurn = new Map<string, ModelTiming[]>();
      for (const request of await model.timings()) byTurn.set(request.lastUserText, [...(byTurn.get(request.lastUserText) ?? []), request]);
      const added: number[] = [];
      const toolStep: number[] = [];
      for (const result of results) {
        const [toolCall, answer] = [...(byTurn.get(result.label) ?? [])].sort((a, b) => a.step - b.step);
        if (answer?.firstTokenAt !== undefined && result.firstTextAt !== undefined) added.push(result.firstTextAt - answer.firstTokenAt);
        if (toolCall?.endedAt !== undefined && answer) toolStep.push(answer.receivedAt - toolCall.endedAt);
      }
      const failed = results.filter((result) => !result.ok || result.text.trim() !== ANSWER);
      const errors = failed.length;
      const reasons = new Map<string, number>();
      for (const result of failed) reasons.set(result.error ?? "incomplete answer", (reasons.get(result.error ?? "incomplete answer") ?? 0) + 1);
      if (errors) console.error(`${chats} chats, failed turns:`, Object.fromEntries(reasons));
      const chunks = results.reduce((sum, result) => sum + result.chunks, 0);
      rows.push(
        `| ${warmUp ? `${chats} (warm-up)` : chats} | ${results.length} | ${round(percentile(added, 50))} | ${round(percentile(added, 99))} | ${round(Math.max(...added))} | ` +
          `${Math.round(chunks / seconds)} | ${round(percentile(toolStep, 50))} | ${round(percentile(toolStep, 99))} | ${round(percentile(restMs, 50))} | ${round(percentile(restMs, 99))} | ${Math.round((100 * cpu) / seconds)} | ${Math.round((100 * mainCpu) / seconds)} | ${Math.round(threads.helpersMs / 10 / seconds)} | ${Math.round(threads.waitMs / 10 / seconds)} | ${loop.p50} | ${loop.p99} | ` +
          `${Math.round((benchCpu.user + benchCpu.system) / 1e4 / seconds)} | ${clientLoopP99} | ${Math.round((100 * modelCpu) / seconds)} | ` +
          `${Math.round((1e6 * cpu) / chunks)} | ${round((1000 * cpu) / results.length)} | ${peakRss} | ${errors} | ${round(seconds)} |`,
      );
      console.error(rows.at(-1));
    }
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    child.kill("SIGKILL");
    model.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}. Database: ${DATABASE}. Model: fake, ${TOKEN_MS} ms per token, ${TOKENS} tokens per answer, one products_search step per turn, ${TURNS} turns per chat, chats starting over ${SPREAD_MS} ms.\n`);
  console.log(`Load average at the end: ${os.loadavg().map((load) => load.toFixed(2)).join(", ")} (${os.cpus().length} CPUs; other processes share them).\n`);
  console.log("| chats | turns | added to first token p50 ms | p99 ms | max ms | chunks/s | tool step p50 ms | p99 ms | REST search beside p50 ms | p99 ms | server CPU % | its main thread % | its V8 helper threads % | its threads waiting for a CPU % | event loop delay p50 ms | p99 ms | bench process CPU % | its loop delay p99 ms | model process CPU % | server CPU µs per chunk | server CPU ms per turn | server RSS MiB | errors | s |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(row);
}

// The server reads the web assets a build wrote, as npm start builds them first.
await buildAssets();
await main();
