// Chat clients for tests: raw socket.io frames (what a third-party client sends) and the AI SDK's own AbstractChat.
import { AbstractChat, readUIMessageStream, type ChatInit, type ChatState, type ChatStatus, type UIMessage, type UIMessageChunk } from "ai";
import { io, type Socket } from "socket.io-client";
import { SocketChatTransport } from "../../src/web/client/socket-chat-transport.ts";
import type { TestServer } from "./server.ts";

export interface Who {
  cookie?: string;
  token?: string;
  /** The Origin header a browser would send. */
  origin?: string;
  /** More handshake headers (e.g. X-Forwarded-For). */
  headers?: Record<string, string>;
}

/** A connected socket.io client of a namespace ("storefront" or "admin"); rejects with the connect_error. */
export async function connect(server: Pick<TestServer, "url">, assistant: string, who: Who = {}): Promise<Socket> {
  const socket = io(`${server.url}/${assistant}`, {
    transports: ["websocket"],
    forceNew: true,
    reconnection: false,
    extraHeaders: { ...who.headers, ...(who.cookie ? { cookie: who.cookie } : {}), ...(who.origin ? { origin: who.origin } : {}) },
    ...(who.token ? { auth: { token: who.token } } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
  return socket;
}

export type Frame =
  | { type: "start"; requestId: string }
  | { type: "chunk"; requestId: string; sequence: number; chunk: UIMessageChunk }
  | { type: "end"; requestId: string }
  | { type: "error"; requestId: string; errorText: string; code?: string }
  | { type: "no-active"; requestId: string };

export interface Turn {
  frames: Frame[];
  chunks: UIMessageChunk[];
  /** The end frame's type: "end", "error" or "no-active". */
  outcome: "end" | "error" | "no-active";
  error?: { errorText: string; code?: string };
  /** The assistant message built from the chunks (undefined without chunks). */
  message: UIMessage | undefined;
  text: string;
}

let counter = 0;

/** Collects the frames of one request id until end, error or no-active; `base` is the assistant message a continuation extends. */
export function collect(socket: Socket, requestId: string, base?: UIMessage, timeoutMs = 15_000): Promise<Turn> {
  const frames: Frame[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off("chat", onFrame);
      reject(new Error(`no end for ${requestId} after ${timeoutMs} ms: ${JSON.stringify(frames.map((f) => f.type))}`));
    }, timeoutMs);
    const onFrame = (frame: Frame) => {
      if (frame.requestId !== requestId) return;
      frames.push(frame);
      if (frame.type === "chunk" || frame.type === "start") return;
      clearTimeout(timer);
      socket.off("chat", onFrame);
      void summarize(frames, base).then(resolve, reject);
    };
    socket.on("chat", onFrame);
  });
}

async function summarize(frames: Frame[], base: UIMessage | undefined): Promise<Turn> {
  const chunks = frames.flatMap((frame) => (frame.type === "chunk" ? [frame.chunk] : []));
  const last = frames.at(-1)!;
  let message: UIMessage | undefined;
  if (chunks.length) {
    const stream = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    for await (const state of readUIMessageStream({ stream, ...(base ? { message: structuredClone(base) } : {}) })) message = state;
  }
  const text = (message?.parts ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  return {
    frames,
    chunks,
    outcome: last.type as Turn["outcome"],
    ...(last.type === "error" ? { error: { errorText: last.errorText, code: last.code } } : {}),
    message,
    text,
  };
}

/**
 * Emits a `send` frame with these messages (a user text becomes one user message) and waits for the turn. When the last
 * message is an assistant message (approval responses), the turn's message is built on top of it, as a client would.
 */
export function send(socket: Socket, chatId: string, content: string | UIMessage[], extra: Record<string, unknown> = {}): Promise<Turn> {
  const requestId = `r${++counter}`;
  const messages = typeof content === "string" ? [userMessage(content)] : content;
  const last = messages.at(-1);
  const done = collect(socket, requestId, last?.role === "assistant" ? last : undefined);
  socket.emit("chat", { type: "send", requestId, id: chatId, trigger: "submit-message", messageId: undefined, messages, headers: {}, body: {}, metadata: undefined, ...extra });
  return done;
}

export function userMessage(text: string): UIMessage {
  return { id: `u${++counter}`, role: "user", parts: [{ type: "text", text }] };
}

/** The assistant message with its pending approvals answered, as `addToolApprovalResponse` leaves it. */
export function answerApprovals(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      "approval" in part && part.state === "approval-requested"
        ? ({ ...part, state: "approval-responded", approval: { id: part.approval.id, approved, ...(reason ? { reason } : {}) } } as unknown as typeof part)
        : part,
    ),
  };
}

/** The tool parts of an assistant message, by tool name without the `tool-` prefix. */
export function toolParts(message: UIMessage | undefined): Array<{ name: string; state: string; toolCallId: string; input?: unknown; output?: unknown; errorText?: string; approval?: { id: string; approved?: boolean } }> {
  return (message?.parts ?? []).flatMap((part) =>
    part.type.startsWith("tool-") ? [{ ...(part as object), name: part.type.slice(5) } as never] : [],
  );
}

/** An AI SDK chat with plain in-memory state (what useChat wraps in React), over any ChatTransport. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(init: ChatInit<UIMessage>) {
    super({ ...init, state: new ArrayState(init.messages ?? []) });
  }
}

class ArrayState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[];

  constructor(messages: UIMessage[]) {
    this.messages = messages;
  }
  pushMessage = (message: UIMessage) => void (this.messages = [...this.messages, message]);
  popMessage = () => void (this.messages = this.messages.slice(0, -1));
  replaceMessage = (index: number, message: UIMessage) => void (this.messages = this.messages.map((m, i) => (i === index ? message : m)));
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** The transport the web widgets use, connected as this shopper or staff member. */
export function socketTransport(server: TestServer, assistant: string, who: Who = {}): SocketChatTransport {
  return new SocketChatTransport(`${server.url}/${assistant}`, {
    socket: { forceNew: true, reconnection: false, ...(who.cookie ? { extraHeaders: { cookie: who.cookie } } : {}) },
    ...(who.token ? { auth: { token: who.token } } : {}),
  });
}

/** GET a chat endpoint (/api/v1/chat/...) with these headers; the parsed JSON body. */
export async function getJson<T = { ok: boolean; result: Record<string, unknown> & { chats: Array<{ id: string; title: string | null }> } }>(
  server: Pick<TestServer, "url">,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { status: response.status, body: (response.status === 204 ? {} : await response.json()) as T };
}
