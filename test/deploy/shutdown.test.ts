// SIGTERM drains a real server process: no new connections, /readyz 503 on a connection still open, the request and
// the chat turn in flight finish whole, chat sockets are closed so their clients reconnect elsewhere, exit 0.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/core/db.ts";
import { collect, connect, userMessage } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { testDatabase } from "../support/server.ts";
import { logEntries, spawnShop, type ShopProcess } from "../support/process.ts";
import { newSession } from "../support/session.ts";
import { waitFor } from "../support/wait.ts";

/** 60 tokens at 40 ms: the answers are still streaming when the signal comes, and finish within the drain timeout. */
const LONG = Array.from({ length: 60 }, (_, i) => `ord${i}`).join(" ");

let fake: FakeOpenAI;
let shop: ShopProcess | undefined;
const sockets: Socket[] = [];
const dirs: string[] = [];
const drops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.tokenDelayMs = 40;
  fake.on("fortæl").say(LONG);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await shop?.stop();
  await fake.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const drop of drops) await drop();
});

/**
 * The database of one shop process: on PostgreSQL (TEST_DATABASE_URL) a throwaway database of its own, else a data
 * directory holding a copy of the PGlite test template (the demo shop), so the process starts without seeding.
 */
async function database(): Promise<Record<string, string>> {
  if (process.env.TEST_DATABASE_URL) {
    const { url, drop } = await testDatabase();
    drops.push(drop);
    return { DATABASE_URL: url! };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-drain-"));
  dirs.push(dir);
  const opened = await openDatabase({ dataDir: dir, loadDataDir: new Blob([fs.readFileSync(inject("pgliteTemplate"))]) });
  await opened.close();
  return { DATA_DIR: dir };
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the HTTP/1.1 responses one connection received, in order (Content-Length or chunked bodies). */
function parseResponses(raw: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < raw.length) {
    const headEnd = raw.indexOf("\r\n\r\n", at);
    if (headEnd < 0) throw new Error(`incomplete response head: ${raw.subarray(at).toString()}`);
    const [statusLine, ...lines] = raw.subarray(at, headEnd).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    at = headEnd + 4;
    const parts: Buffer[] = [];
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const sizeEnd = raw.indexOf("\r\n", at);
        const size = parseInt(raw.subarray(at, sizeEnd).toString(), 16);
        at = sizeEnd + 2;
        if (size === 0) break;
        parts.push(raw.subarray(at, at + size));
        at += size + 2;
      }
      at += 2;
    } else {
      const length = Number(headers["content-length"] ?? 0);
      parts.push(raw.subarray(at, at + length));
      at += length;
    }
    responses.push({ status: Number(statusLine!.split(" ")[1]), headers, body: Buffer.concat(parts).toString("utf8") });
  }
  return responses;
}

/** The text an SSE chat answer carried (its text deltas), and whether it ended with [DONE]. */
function sseText(body: string): { text: string; done: boolean } {
  const events = body.trim().split("\n\n");
  const chunks = events.filter((event) => event !== "data: [DONE]").map((event) => JSON.parse(event.slice(6)) as { type: string; delta?: string });
  return { text: chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join(""), done: events.at(-1) === "data: [DONE]" };
}

describe("SIGTERM", () => {
  it("drains: the request and the socket turn in flight finish, /readyz answers 503 with Connection: close, no new connection is taken", { timeout: 180_000 }, async () => {
    shop = spawnShop({ ...(await database()), OPENAI_API_KEY: "sk-fake", OPENAI_BASE_URL: fake.url, OPENAI_API_STYLE: "chat", CHAT_WORKERS: "0", SHUTDOWN_TIMEOUT_MS: "15000" });
    const url = await shop.url();
    const { port } = new URL(url);
    const cookie = await newSession({ url });

    // A chat turn over HTTP on a raw keep-alive connection, streaming when the signal comes.
    const connection = net.connect(Number(port), "127.0.0.1");
    const received: Buffer[] = [];
    connection.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => connection.once("close", () => resolve()));
    const body = JSON.stringify({ id: "drain-http", messages: [userMessage("fortæl en historie")] });
    connection.write(`POST /api/v1/chat/storefront HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    // And one over socket.io.
    const socket = await connect({ url }, "storefront", { cookie });
    sockets.push(socket);
    const disconnected = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
    const turn = collect(socket, "drain-socket", undefined, 30_000);
    socket.emit("chat", { type: "send", requestId: "drain-socket", id: "drain-socket", trigger: "submit-message", messages: [userMessage("fortæl en anden")], headers: {}, body: {} });
    await waitFor(() => Buffer.concat(received).toString().includes("text-delta") && fake.requests.length === 2);

    shop.child.kill("SIGTERM");
    await shop.line(/"message":"draining"/);
    // The connection is busy, so it stays open: a request on it is answered, 503 and Connection: close.
    connection.write(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    // A new connection is refused.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    await closed;
    const [chat, ready, ...more] = parseResponses(Buffer.concat(received));
    expect(more).toEqual([]);
    expect(chat!.status).toBe(200);
    expect(sseText(chat!.body)).toEqual({ text: LONG, done: true });
    expect(ready).toMatchObject({ status: 503, headers: { connection: "close" } });
    expect(JSON.parse(ready!.body)).toEqual({ ok: false, draining: true });

    expect(await turn).toMatchObject({ outcome: "end", text: LONG });
    // The server closed the transport: a client with reconnection on reconnects (to another process behind the balancer).
    expect(await disconnected).toBe("transport close");
    expect(fake.requests.filter((request) => request.aborted)).toEqual([]);
    expect(await shop.exited).toBe(0);
    const messages = logEntries(shop.output()).map((entry) => entry.message);
    expect(messages).toContain("stopped");
    expect(messages).not.toContain("drain timed out: cutting off the requests and chat turns still running");
  });

  it("cuts off what is still running after SHUTDOWN_TIMEOUT_MS", { timeout: 180_000 }, async () => {
    fake.tokenDelayMs = 500;
    shop = spawnShop({ ...(await database()), OPENAI_API_KEY: "sk-fake", OPENAI_BASE_URL: fake.url, OPENAI_API_STYLE: "chat", CHAT_WORKERS: "0", SHUTDOWN_TIMEOUT_MS: "1000" });
    const url = await shop.url();
    const socket = await connect({ url }, "storefront", { cookie: await newSession({ url }) });
    sockets.push(socket);
    const disconnected = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
    socket.emit("chat", { type: "send", requestId: "slow", id: "slow", trigger: "submit-message", messages: [userMessage("fortæl langsomt")], headers: {}, body: {} });
    await waitFor(() => fake.requests.length === 3);
    const signalled = Date.now();
    shop.child.kill("SIGTERM");
    expect(await shop.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(await disconnected).toBe("transport close");
    await waitFor(() => fake.requests[2]!.aborted);
    expect(logEntries(shop.output()).map((entry) => entry.message)).toContain("drain timed out: cutting off the requests and chat turns still running");
  });
});
