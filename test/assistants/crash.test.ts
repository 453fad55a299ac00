// Turns whose server process is killed (SIGKILL, real server processes): the chat takes a new turn within seconds, and
// with two processes a socket resume or an HTTP replay that follows the turn from the other process ends within seconds.
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UIMessage } from "ai";
import { collect, connect, getJson, send, userMessage, type Frame, type Turn } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { spawnShop, type ShopProcess } from "../support/process.ts";
import { processDatabase } from "../support/server.ts";
import { newSession } from "../support/session.ts";
import { waitFor } from "../support/wait.ts";

const pg = Boolean(process.env.TEST_DATABASE_URL);
const clustered = pg && Boolean(process.env.REDIS_URL);
/** A dead process's hold on its chat lapses 6 s after its last renewal (src/assistants/turns/holds.ts); here with room to spare. */
const WITHIN_MS = 15_000;
/** 300 tokens at 50 ms: the turn outlives every test step. */
const LONG = Array.from({ length: 300 }, (_, i) => `ord${i}`).join(" ");

let fake: FakeOpenAI;
const shops: ShopProcess[] = [];
const sockets: Socket[] = [];
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.tokenDelayMs = 50;
  fake.on("fortæl").say(LONG);
  fake.otherwise("Kort svar.");
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await Promise.all(shops.map((shop) => shop.stop()));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await fake.close();
});

/** The environment of shop processes on one database of their own (PGlite: a data directory), answering with the fake model. */
async function shopEnv(): Promise<Record<string, string>> {
  // Turns on the main thread: a worker thread would load the AI SDK once more in each process, slow on a busy machine.
  const env = { OPENAI_API_KEY: "sk-fake", OPENAI_BASE_URL: fake.url, OPENAI_API_STYLE: "chat", RATE_LIMIT_ANON_PER_MIN: "100000", CHAT_TURNS_PER_MIN: "1000", CHAT_WORKERS: "0" };
  const own = await processDatabase();
  cleanups.push(own.drop);
  return { ...env, ...own.env };
}

async function start(env: Record<string, string>): Promise<{ shop: ShopProcess; url: string }> {
  const shop = spawnShop(env);
  shops.push(shop);
  return { shop, url: await shop.url() };
}

async function kill(shop: ShopProcess): Promise<number> {
  shop.child.kill("SIGKILL");
  expect(await shop.exited).toBe("SIGKILL");
  return Date.now();
}

async function open(on: { url: string }, cookie: string): Promise<Socket> {
  const socket = await connect(on, "storefront", { cookie });
  sockets.push(socket);
  return socket;
}

/** Sends a long turn and resolves once `count` chunk frames arrived (the turn keeps streaming). */
function startTurn(socket: Socket, chatId: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    let chunks = 0;
    socket.on("chat", (frame: Frame) => void (frame.type === "chunk" && ++chunks === count && resolve()));
    socket.emit("chat", { type: "send", requestId: "first", id: chatId, trigger: "submit-message", messages: [userMessage("fortæl en historie")], headers: {}, body: {} });
  });
}

function resume(socket: Socket, chatId: string, requestId: string): Promise<Turn> {
  const done = collect(socket, requestId);
  socket.emit("chat", { type: "resume", requestId, id: chatId, headers: {}, body: {} });
  return done;
}

describe("a turn whose process is killed", () => {
  it("leaves its chat free for a new turn within seconds, while resume finds no turn", { timeout: 300_000 }, async () => {
    const env = await shopEnv();
    const a = await start(env);
    // PostgreSQL: the other process is up before the kill (a PGlite data directory is one process's: it starts after).
    const up = pg ? await start(env) : undefined;
    const cookie = await newSession(a);
    await startTurn(await open(a, cookie), "c-killed", 3);
    const killed = await kill(a.shop);
    const b = up ?? (await start(env));
    const onB = await open(b, cookie);
    expect((await resume(onB, "c-killed", "gone")).outcome).toBe("no-active");

    const deadline = Math.max(killed + WITHIN_MS, Date.now() + 2_000);
    let turn = await send(onB, "c-killed", "hej igen");
    while (turn.error?.code === "turn_running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      turn = await send(onB, "c-killed", "hej igen");
    }
    expect(turn).toMatchObject({ outcome: "end", text: "Kort svar." });
    const stored = await getJson<{ result: { messages: UIMessage[] } }>(b, "/api/v1/chat/storefront/c-killed", { cookie });
    expect(stored.body.result.messages.map((message) => message.role)).toEqual(["user", "user", "assistant"]);
  });

  it.skipIf(!clustered)("ends a socket resume and an HTTP replay that follow it from another process within seconds", { timeout: 300_000 }, async () => {
    const env = await shopEnv();
    const [a, b] = await Promise.all([start(env), start(env)]);
    const cookie = await newSession(a);
    await startTurn(await open(a, cookie), "c-followed", 3);
    const onB = await open(b, cookie);
    const frames: Frame[] = [];
    onB.on("chat", (frame: Frame) => void frames.push(frame));
    onB.emit("chat", { type: "resume", requestId: "follow", id: "c-followed", headers: {}, body: {} });
    // Streaming (its headers came) before the kill; its status is checked after the socket's end.
    const replay = await fetch(`${b.url}/api/v1/chat/storefront/c-followed/stream`, { headers: { cookie } });
    await waitFor(() => frames.filter((frame) => frame.type === "chunk").length >= 10);

    const killed = await kill(a.shop);
    await waitFor(() => frames.some((frame) => frame.type !== "chunk" && frame.type !== "start"), WITHIN_MS);
    expect(frames[0]).toEqual({ type: "start", requestId: "follow" });
    expect(frames.at(-1)).toEqual({ type: "error", requestId: "follow", code: "internal", errorText: expect.any(String) });
    expect(replay.status).toBe(200);
    const events = (await replay.text()).trim().split("\n\n");
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(events.at(-2)!.slice(6))).toMatchObject({ type: "error" });
    expect(Date.now() - killed).toBeLessThan(WITHIN_MS);
  });
});
