// Dropped connections: a resume replays the running turn from its first chunk (also on another process through Redis),
// an abort frame stops the model, and a turn nobody comes back to is aborted after the grace period.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import type { UIMessage } from "ai";
import { collect, connect, getJson, send, socketTransport, TestChat, userMessage, type Frame } from "../support/chat.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { startPeerServer, startServer, useServer, type TestServer } from "../support/server.ts";
import { newSession, sessionIdOf } from "../support/session.ts";
import { waitFor } from "../support/wait.ts";

const GRACE_MS = 1_500;
const LONG = Array.from({ length: 40 }, (_, i) => `ord${i}`).join(" ");
const clustered = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);

let fake: FakeOpenAI;
const sockets: Socket[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
const { server } = useServer({ config: () => ({ openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiApiStyle: "chat", chatResumeGraceMs: GRACE_MS }) });
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.tokenDelayMs = 25;
  fake.on("fortæl").say(LONG);
});

async function open(on: TestServer, cookie: string) {
  const socket = await connect(on, "storefront", { cookie });
  sockets.push(socket);
  return socket;
}

/** Sends a turn and resolves once `count` chunk frames arrived (the turn keeps streaming). */
function startTurn(socket: Socket, chatId: string, count: number): Promise<Frame[]> {
  const frames: Frame[] = [];
  return new Promise((resolve) => {
    socket.on("chat", (frame: Frame) => {
      frames.push(frame);
      if (frames.filter((f) => f.type === "chunk").length === count) resolve(frames);
    });
    socket.emit("chat", { type: "send", requestId: "first", id: chatId, trigger: "submit-message", messages: [userMessage("fortæl en historie")], headers: {}, body: {} });
  });
}

function resume(socket: Socket, chatId: string, requestId: string) {
  const done = collect(socket, requestId);
  socket.emit("chat", { type: "resume", requestId, id: chatId, headers: {}, body: {} });
  return done;
}

function expectFullReplay(turn: Awaited<ReturnType<typeof resume>>) {
  expect(turn.frames[0]).toEqual({ type: "start", requestId: expect.any(String) });
  const sequences = turn.frames.flatMap((frame) => (frame.type === "chunk" ? [frame.sequence] : []));
  expect(sequences).toEqual(sequences.map((_, i) => i));
  expect(turn.outcome).toBe("end");
  expect(turn.text).toBe(LONG);
}

describe("resuming and aborting turns", () => {
  it("replays a running turn from its first chunk to a new connection of the same shopper", async () => {
    const cookie = await newSession(server);
    const first = await open(server, cookie);
    await startTurn(first, "r-drop", 5);
    first.disconnect();
    const second = await open(server, cookie);
    expectFullReplay(await resume(second, "r-drop", "again"));
    // Finished turns stay replayable for a while; another shopper's resume of the same chat id finds nothing.
    expectFullReplay(await resume(second, "r-drop", "late"));
    const stranger = await open(server, await newSession(server));
    expect((await resume(stranger, "r-drop", "theirs")).outcome).toBe("no-active");
    expect((await resume(second, "r-unknown", "none")).outcome).toBe("no-active");
    expect(fake.requests.filter((request) => request.aborted)).toHaveLength(0);
  });

  it("stores the person's message when the turn starts: a reload during the answer shows it", async () => {
    const cookie = await newSession(server);
    const socket = await open(server, cookie);
    await startTurn(socket, "r-saved", 3);
    const listed = await getJson(server, "/api/v1/chat/storefront", { cookie });
    expect(listed.body.result.chats).toEqual([expect.objectContaining({ id: "r-saved", title: "fortæl en historie" })]);
    const during = await getJson<{ result: { messages: UIMessage[] } }>(server, "/api/v1/chat/storefront/r-saved", { cookie });
    expect(during.body.result.messages).toEqual([expect.objectContaining({ role: "user", parts: [{ type: "text", text: "fortæl en historie" }] })]);
    expect(server.runtime.chat.streams.find(`storefront:session:${sessionIdOf(cookie)}:r-saved`)?.running).toBe(true);
    await waitFor(() => server.runtime.chat.streams.find(`storefront:session:${sessionIdOf(cookie)}:r-saved`)?.running === false);
    const after = await getJson<{ result: { messages: UIMessage[] } }>(server, "/api/v1/chat/storefront/r-saved", { cookie });
    expect(after.body.result.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("replays a running turn over HTTP to DefaultChatTransport's reconnect (GET …/<chatId>/stream), 204 when none", async () => {
    const cookie = await newSession(server);
    const socket = await open(server, cookie);
    await startTurn(socket, "r-http", 3);
    const replay = await fetch(`${server.url}/api/v1/chat/storefront/r-http/stream`, { headers: { cookie } });
    expect(replay.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const events = (await replay.text()).trim().split("\n\n");
    expect(events.at(-1)).toBe("data: [DONE]");
    const deltas = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)) as { type: string; delta?: string });
    expect(deltas[0]!.type).toBe("start");
    expect(deltas.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join("")).toBe(LONG);
    expect((await fetch(`${server.url}/api/v1/chat/storefront/r-none/stream`, { headers: { cookie } })).status).toBe(204);
  });

  it("resumes through AbstractChat.resumeStream after the transport lost its connection", async () => {
    const cookie = await newSession(server);
    const transport = socketTransport(server, "storefront", { cookie });
    const chat = new TestChat({ id: "r-chat", transport });
    const sending = chat.sendMessage({ text: "fortæl" });
    await waitFor(() => chat.messages[1]?.parts.some((part) => part.type === "text" && part.text.length > 10) ?? false);
    transport.socket.io.engine.close();
    await sending;
    expect(chat.status).toBe("error");
    await chat.resumeStream();
    expect(chat.status).toBe("ready");
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(chat.messages[1]!.parts.filter((part) => part.type === "text").map((part) => (part as { text: string }).text).join("")).toBe(LONG);
    transport.close();
  });

  it("stops the model on an abort frame and keeps the partial answer", async () => {
    const cookie = await newSession(server);
    const socket = await open(server, cookie);
    await startTurn(socket, "r-abort", 4);
    socket.emit("chat", { type: "abort", requestId: "first" });
    await waitFor(() => fake.requests[0]!.aborted);
    const owner = `session:${sessionIdOf(cookie)}`;
    await waitFor(() => server.runtime.chat.streams.find(`storefront:${owner}:r-abort`)?.running === false);
    const saved = await server.runtime.chat.store.get("storefront", owner, "r-abort");
    const text = saved!.messages[1]!.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(LONG.length);
    expect((await send(socket, "r-abort", "fortæl igen")).outcome).toBe("end");
  });

  it("aborts a turn nobody came back to after the grace period", async () => {
    fake.tokenDelayMs = 150;
    const cookie = await newSession(server);
    const socket = await open(server, cookie);
    await startTurn(socket, "r-gone", 2);
    socket.disconnect();
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS / 2));
    expect(fake.requests[0]!.aborted).toBe(false);
    await waitFor(() => fake.requests[0]!.aborted, GRACE_MS * 2);
  });

  it("refuses a send or resume whose requestId is already running on the socket; the running turn goes on and its abort still works", async () => {
    const cookie = await newSession(server);
    const socket = await open(server, cookie);
    await startTurn(socket, "r-dup", 3);
    const refusals: Frame[] = [];
    socket.on("chat", (frame: Frame) => void (frame.type === "error" && refusals.push(frame)));
    socket.emit("chat", { type: "send", requestId: "first", id: "r-dup-other", trigger: "submit-message", messages: [userMessage("fortæl en anden")], headers: {}, body: {} });
    socket.emit("chat", { type: "resume", requestId: "first", id: "r-dup", headers: {}, body: {} });
    await waitFor(() => refusals.length === 2);
    expect(refusals).toEqual([
      { type: "error", requestId: "first", code: "request_id_in_use", errorText: expect.stringMatching(/requestId/) },
      { type: "error", requestId: "first", code: "request_id_in_use", errorText: expect.stringMatching(/requestId/) },
    ]);
    expect(fake.requests).toHaveLength(1);
    socket.emit("chat", { type: "abort", requestId: "first" });
    await waitFor(() => fake.requests[0]!.aborted);
    expect(refusals).toHaveLength(2);
  });

  it.skipIf(!clustered)("runs one turn per chat across processes: a send on another process while it runs gets turn_running", async () => {
    await withTwoProcesses("busy", async (a, b) => {
      const cookie = await newSession(a);
      const onA = await open(a, cookie);
      const onB = await open(b, cookie);
      await startTurn(onA, "r-one", 3);
      expect(await send(onB, "r-one", "fortæl mere")).toMatchObject({ outcome: "error", error: { code: "turn_running" } });
      expect(fake.requests).toHaveLength(1);
      const owner = `session:${sessionIdOf(cookie)}`;
      await waitFor(() => a.runtime.chat.streams.find(`storefront:${owner}:r-one`)?.running === false);
      expect((await send(onB, "r-one", "fortæl mere")).outcome).toBe("end");
      const saved = await b.runtime.chat.store.get("storefront", owner, "r-one");
      expect(saved!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    });
  });

  it.skipIf(!clustered)("replays a turn running on one process to a reconnect that lands on another (Redis adapter)", async () => {
    await withTwoProcesses("resume", async (a, b) => {
      const cookie = await newSession(a);
      const onA = await open(a, cookie);
      await startTurn(onA, "r-cluster", 5);
      onA.disconnect();
      const onB = await open(b, cookie);
      expectFullReplay(await resume(onB, "r-cluster", "elsewhere"));
      expect(b.runtime.chat.streams.size).toBe(0);
      expect((await resume(onB, "r-cluster-none", "none")).outcome).toBe("no-active");
    });
  });

  it.skipIf(!clustered)("replays over HTTP a turn running on another process, as the socket resume does (GET …/<chatId>/stream)", async () => {
    await withTwoProcesses("http-replay", async (a, b) => {
      const cookie = await newSession(a);
      const onA = await open(a, cookie);
      await startTurn(onA, "r-http-cluster", 3);
      const replay = async (on: TestServer, chatId: string) => {
        const response = await fetch(`${on.url}/api/v1/chat/storefront/${chatId}/stream`, { headers: { cookie } });
        return { status: response.status, events: (await response.text()).trim().split("\n\n") };
      };
      for (const attempt of ["running", "finished"]) {
        const { status, events } = await replay(b, "r-http-cluster");
        expect(status, attempt).toBe(200);
        expect(events.at(-1)).toBe("data: [DONE]");
        const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)) as { type: string; delta?: string });
        expect(chunks[0]!.type).toBe("start");
        expect(chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join("")).toBe(LONG);
      }
      expect(b.runtime.chat.streams.size).toBe(0);
      expect((await replay(b, "r-http-cluster-none")).status).toBe(204);
    });
  });
});

/** Two shop processes on one database, peers through Redis (socket.io adapter, rate limits), closed after `run`. */
async function withTwoProcesses(name: string, run: (a: TestServer, b: TestServer) => Promise<void>): Promise<void> {
  const prefix = `shop:test:${name}:${Date.now()}:`;
  const config = { openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiApiStyle: "chat" as const, chatResumeGraceMs: GRACE_MS };
  const a = await startServer(config, { rateLimitPrefix: prefix });
  const b = await startPeerServer(a, config, { rateLimitPrefix: prefix });
  try {
    await run(a, b);
  } finally {
    await b.close();
    await a.close();
  }
}
