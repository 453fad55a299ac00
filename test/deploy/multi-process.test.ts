// Several server processes behind HAProxy (deploy/haproxy.cfg itself) on PostgreSQL + Redis, as docs/deploy.md runs
// them: a storefront chat started on one process resumes on the other through the balancer, and a rolling restart
// (SIGTERM, start again, the same for the second) loses no request of a steady stream of tool calls.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, userMessage, type Frame } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { logEntries, spawnShop, type ShopProcess } from "../support/process.ts";
import { testDatabase } from "../support/server.ts";
import { newSession } from "../support/session.ts";
import { waitFor } from "../support/wait.ts";

const clustered = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
/** 150 tokens at 30 ms: the turn is still running when the second socket resumes it. */
const LONG = Array.from({ length: 150 }, (_, i) => `ord${i}`).join(" ");
const CONCURRENCY = 3;
/** Each client stops after this many calls at the latest, whatever happens to the restart. */
const MAX_CALLS_PER_CLIENT = 4_000;

let fake: FakeOpenAI;
let env: Record<string, string>;
let drop: (() => Promise<void>) | undefined;
let haproxy: { child: ChildProcess; output: () => string; url: string } | undefined;
const ports = { shop1: 0, shop2: 0 };
const shops: Partial<Record<keyof typeof ports, ShopProcess>> = {};
const sockets: Socket[] = [];
const dirs: string[] = [];

function haproxyBinary(): string {
  try {
    return execFileSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("This test runs HAProxy: install it (apt-get install -y haproxy; .ci/run does).");
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** deploy/haproxy.cfg with this test's bind address and servers, checks every 200 ms, and a log line per request as soon as it is answered. */
function haproxyConfig(lbPort: number): string {
  const documented = fs.readFileSync("deploy/haproxy.cfg", "utf8");
  const servers = Object.entries(ports).map(([name, port]) => `    server ${name} 127.0.0.1:${port}`).join("\n");
  const config = documented
    .replace(/^ {4}bind .*$/m, `    bind 127.0.0.1:${lbPort}`)
    .replace(/^ {4}default-server .*$/m, "    default-server check inter 200ms fall 1 rise 1")
    .replace(/^ {4}option httplog$/m, "    option httplog\n    option logasap")
    .replace(/(^ {4}server .*\n?)+/m, `${servers}\n`);
  // The replacements found what they replace: the documented file still has the shape this test relies on.
  expect(config).toContain(`bind 127.0.0.1:${lbPort}`);
  expect(config).toContain("inter 200ms");
  expect(config).toContain("option logasap");
  expect(config.match(/^ {4}server /gm)).toHaveLength(2);
  return config;
}

async function startHaproxy(): Promise<NonNullable<typeof haproxy>> {
  const binary = haproxyBinary();
  const lbPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-haproxy-"));
  dirs.push(dir);
  const file = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(file, haproxyConfig(lbPort));
  const child = spawn(binary, ["-f", file, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  const url = `http://127.0.0.1:${lbPort}`;
  // Bounded: HAProxy binds at once or reports why it cannot.
  await waitFor(() => text.includes("Proxy shop started") || child.exitCode !== null, 10_000).catch(() => undefined);
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${text}`);
    if (await fetch(`${url}/healthz`).then((response) => response.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => text, url };
}

/** The server (shop1, shop2) HAProxy sent requests for `uri` to, from its log (logged as soon as answered). */
function servedBy(uri: string): string[] {
  return haproxy!
    .output()
    .split("\n")
    .filter((line) => line.includes(` ${uri} `))
    .map((line) => / shop\/(shop\d) /.exec(line)?.[1] ?? "none");
}

function start(name: keyof typeof ports): Promise<string> {
  const shop = spawnShop({ ...env, PORT: String(ports[name]) });
  shops[name] = shop;
  return shop.url(120_000);
}

beforeAll(async () => {
  if (!clustered) return;
  fake = await startFakeOpenAI();
  fake.tokenDelayMs = 30;
  fake.on("fortæl").say(LONG);
  const database = await testDatabase();
  drop = database.drop;
  env = {
    DATABASE_URL: database.url!,
    REDIS_URL: process.env.REDIS_URL!,
    SESSION_SECRET: "a-shared-secret-of-at-least-32-characters",
    OPENAI_API_KEY: "sk-fake",
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_STYLE: "chat",
    // Turns on the main thread: a worker thread would load the AI SDK once more in each process.
    CHAT_WORKERS: "0",
    RATE_LIMIT_ANON_PER_MIN: "1000000",
    CHAT_TURNS_PER_MIN: "1000",
    SHUTDOWN_TIMEOUT_MS: "10000",
  };
  ports.shop1 = await freePort();
  ports.shop2 = await freePort();
  await Promise.all([start("shop1"), start("shop2")]);
  haproxy = await startHaproxy();
}, 240_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(Object.values(shops).map((shop) => shop.stop()));
  haproxy?.child.kill("SIGTERM");
  await fake?.close();
  await drop?.();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A storefront socket through the balancer; `probe` marks its handshake in HAProxy's log. */
async function open(cookie: string, probe: string): Promise<Socket> {
  const socket = io(`${haproxy!.url}/storefront`, { transports: ["websocket"], forceNew: true, reconnection: false, extraHeaders: { cookie }, query: { probe } });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** The process HAProxy sent a socket's handshake to. */
async function serverOf(probe: string): Promise<string> {
  const uri = `/socket.io/?probe=${probe}&EIO=4&transport=websocket`;
  await waitFor(() => servedBy(uri).length > 0, 5_000);
  return servedBy(uri)[0]!;
}

describe.skipIf(!clustered)("several processes behind HAProxy (PostgreSQL + Redis: skipped unless TEST_DATABASE_URL and REDIS_URL are set)", () => {
  it("resumes on the other process a storefront chat that started on one", { timeout: 60_000 }, async () => {
    const cookie = await newSession({ url: haproxy!.url });
    const first = await open(cookie, "first");
    const chunks: Frame[] = [];
    first.on("chat", (frame: Frame) => void (frame.type === "chunk" && chunks.push(frame)));
    first.emit("chat", { type: "send", requestId: "start", id: "lb-chat", trigger: "submit-message", messages: [userMessage("fortæl en historie")], headers: {}, body: {} });
    await waitFor(() => chunks.length >= 5);
    first.disconnect();
    const ranOn = await serverOf("first");

    // Round robin alternates; a few tries at most until the new socket lands on the other process.
    let second: Socket | undefined;
    for (let attempt = 0; attempt < 4 && !second; attempt++) {
      const socket = await open(cookie, `second${attempt}`);
      if ((await serverOf(`second${attempt}`)) !== ranOn) second = socket;
      else socket.close();
    }
    expect(second, "a socket on the other process").toBeDefined();
    const replay = collect(second!, "again", undefined, 30_000);
    second!.emit("chat", { type: "resume", requestId: "again", id: "lb-chat", headers: {}, body: {} });
    const turn = await replay;
    expect(turn.outcome).toBe("end");
    expect(turn.text).toBe(LONG);
    const sequences = turn.frames.flatMap((frame) => (frame.type === "chunk" ? [frame.sequence] : []));
    expect(sequences).toEqual(sequences.map((_, i) => i));
    second!.close();

    // The turn ran where it started, and only there.
    const ranTurn = (name: string) => logEntries(shops[name as keyof typeof ports]!.output()).some((entry) => entry.message === "chat turn" && entry.chatId === "lb-chat");
    await waitFor(() => ranTurn(ranOn));
    expect(ranTurn(ranOn === "shop1" ? "shop2" : "shop1")).toBe(false);
  });

  it("loses no request during a rolling restart", { timeout: 120_000 }, async () => {
    const outcomes: Array<number | string> = [];
    let running = true;
    const client = async () => {
      for (let i = 0; running && i < MAX_CALLS_PER_CLIENT; i++) {
        try {
          const response = await fetch(`${haproxy!.url}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"q":"sol","limit":3}' });
          const text = await response.text();
          outcomes.push(response.ok && text.startsWith('{"ok":true') ? response.status : `${response.status} ${text.slice(0, 200)}`);
        } catch (error) {
          outcomes.push(String((error as Error).cause ?? error));
        }
      }
    };
    const clients = Array.from({ length: CONCURRENCY }, client);
    const logged = (name: string) => haproxy!.output().split("\n").filter((line) => line.includes(` shop/${name} `) && line.includes("products.search")).length;

    for (const name of ["shop1", "shop2"] as const) {
      await waitFor(() => outcomes.length >= 20, 20_000);
      const shop = shops[name]!;
      shop.child.kill("SIGTERM");
      expect(await shop.exited).toBe(0);
      expect(logEntries(shop.output()).map((entry) => entry.message)).toContain("stopped");
      const before = logged(name);
      await start(name);
      // Back in rotation once HAProxy's check passed: calls reach it again.
      await waitFor(() => logged(name) > before, 20_000);
    }
    const during = outcomes.length;
    await waitFor(() => outcomes.length >= during + 20, 20_000);
    running = false;
    await Promise.all(clients);

    expect(outcomes.filter((outcome) => outcome !== 200)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(100);
  });
});
