// A browser-safe AI SDK ChatTransport over socket.io, for the shop's chat widgets (and anyone's): copy this one file.
//
//   import { SocketChatTransport } from "./socket-chat-transport";
//   const transport = new SocketChatTransport("/storefront");                        // shopper: the shop_session cookie
//   const admin = new SocketChatTransport("https://shop.example/admin", { auth: { token: apiKey } }); // staff: key or staff cookie
//   const chat = new MyChat({ id: chatId, transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
//   await chat.sendMessage({ text: "Har I solbriller under 1.000 kr.?" });
//   const { available, chats } = await transport.listChats();    // reopen: chat with (await transport.loadChat(id)).messages
//
// Constructor: `new SocketChatTransport(url, options)`
// - `url`: the namespace, "/storefront" or "/admin", relative to the page or absolute ("https://host/admin").
// - `options.auth`: the socket.io handshake auth, e.g. `{ token: "<API key>" }` for /admin (the staff cookie works too).
// - `options.socket`: socket.io-client options; default `{ transports: ["websocket"], withCredentials: true }` (websocket
//   only, so several server processes need no sticky sessions). In Node pass `extraHeaders: { cookie }` here.
// - `options.sendLastMessageOnly` (default true): the server keeps the history and reads only the last message.
// Wire: event "chat" with the AI SDK WebSocketChatTransport frames (send / resume / abort → start / chunk / end / error /
// no-active, correlated by requestId). An error frame rejects with an Error whose `code` is the server's code, e.g.
// "not_configured" (no model configured: show a note instead of the chat), "feature_disabled", "rate_limited",
// "turn_running", "unauthorized", "invalid_input", "no_pending_approval".
// A dropped connection errors the running request; `chat.resumeStream()` (reconnectToStream) replays the turn from its
// first chunk once the socket is back, also when the reconnect lands on another server process.
import type { ChatRequestOptions, ChatTransport, UIMessage, UIMessageChunk } from "ai";
import { io, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";

export interface SocketChatTransportOptions {
  auth?: Record<string, unknown>;
  socket?: Partial<ManagerOptions & SocketOptions>;
  sendLastMessageOnly?: boolean;
}

/** A chat of the connection's user, as listed by `listChats()`. */
export interface ChatSummary {
  id: string;
  title: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ChatList {
  available: boolean;
  /** Why the assistant cannot answer now ("not_configured", "feature_disabled"), when it cannot. */
  code?: string;
  detail?: string;
  chats: ChatSummary[];
}

/** An error frame or problem from the server; `code` says what went wrong. */
export class ChatError extends Error {
  readonly code: string;

  constructor(message: string, code: string) {
    super(message);
    this.code = code;
    this.name = "ChatError";
  }
}

type ServerFrame =
  | { type: "start"; requestId: string }
  | { type: "chunk"; requestId: string; sequence: number; chunk: UIMessageChunk }
  | { type: "end"; requestId: string }
  | { type: "error"; requestId: string; errorText?: string; code?: string }
  | { type: "no-active"; requestId: string };

interface Pending {
  kind: "send" | "resume";
  lastSequence: number;
  controller: ReadableStreamDefaultController<UIMessageChunk>;
  stream: ReadableStream<UIMessageChunk>;
  /** Resume only: settles reconnectToStream() on start / first chunk / end (stream) or no-active (null). */
  settle?: (stream: ReadableStream<UIMessageChunk> | null, error?: Error) => void;
}

export class SocketChatTransport<UI_MESSAGE extends UIMessage = UIMessage> implements ChatTransport<UI_MESSAGE> {
  readonly resumeStreamIsReplay = true;
  readonly socket: Socket;
  private readonly pending = new Map<string, Pending>();
  private readonly lastOnly: boolean;

  constructor(url: string, options: SocketChatTransportOptions = {}) {
    this.lastOnly = options.sendLastMessageOnly ?? true;
    this.socket = io(url, { transports: ["websocket"], withCredentials: true, ...options.socket, ...(options.auth ? { auth: options.auth } : {}) });
    this.socket.on("chat", (frame: ServerFrame) => this.receive(frame));
    this.socket.on("disconnect", (reason) => this.failAll(new ChatError(`Connection lost (${reason}).`, "disconnected")));
    this.socket.on("connect_error", (error: Error & { data?: { code?: string } }) => {
      this.failAll(new ChatError(error.message, error.data?.code ?? "connect_error"));
    });
  }

  async sendMessages(options: Parameters<ChatTransport<UI_MESSAGE>["sendMessages"]>[0]): Promise<ReadableStream<UIMessageChunk>> {
    const { chatId, messages, trigger, messageId, abortSignal } = options;
    const requestId = randomId();
    const pending = this.open(requestId, "send", abortSignal);
    this.emit({
      type: "send",
      requestId,
      id: chatId,
      trigger,
      messageId,
      messages: this.lastOnly ? messages.slice(-1) : messages,
      headers: {},
      body: options.body ?? {},
      metadata: options.metadata,
    });
    return pending.stream;
  }

  reconnectToStream(options: { chatId: string; abortSignal?: AbortSignal } & ChatRequestOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const requestId = randomId();
    return new Promise((resolve, reject) => {
      const pending = this.open(requestId, "resume", options.abortSignal);
      pending.settle = (stream, error) => {
        pending.settle = undefined;
        if (error) reject(error);
        else resolve(stream);
      };
      this.emit({ type: "resume", requestId, id: options.chatId, lastSequence: undefined, headers: {}, body: options.body ?? {}, metadata: options.metadata });
    });
  }

  /** Whether the assistant can answer, and the chats of this connection's user (newest first). */
  listChats(): Promise<ChatList> {
    return this.ask<ChatList>({});
  }

  /** One of the user's chats with its messages (for `new Chat({ id, messages })`), or null. */
  loadChat(id: string): Promise<(ChatSummary & { messages: UI_MESSAGE[] }) | null> {
    return this.ask({ id });
  }

  close(): void {
    this.failAll(new ChatError("The chat transport was closed.", "closed"));
    this.socket.disconnect();
  }

  /** A `chats` request; a refused handshake rejects it at once (with the server's code) instead of at the timeout. */
  private ask<T>(request: object): Promise<T> {
    if (!this.socket.connected) this.socket.connect();
    return new Promise<T>((resolve, reject) => {
      const refused = (error: Error & { data?: { code?: string } }) => reject(new ChatError(error.message, error.data?.code ?? "connect_error"));
      this.socket.once("connect_error", refused);
      this.socket
        .timeout(15_000)
        .emitWithAck("chats", request)
        .then((answer: { ok: true; result: T } | { ok: false; detail: string; code: string }) => {
          if (answer.ok) resolve(answer.result);
          else reject(new ChatError(answer.detail, answer.code));
        }, reject)
        .finally(() => this.socket.off("connect_error", refused));
    });
  }

  private emit(frame: object): void {
    if (!this.socket.connected) this.socket.connect();
    this.socket.emit("chat", frame);
  }

  private open(requestId: string, kind: Pending["kind"], abortSignal: AbortSignal | undefined): Pending {
    let controller!: ReadableStreamDefaultController<UIMessageChunk>;
    const stream = new ReadableStream<UIMessageChunk>({
      start: (c) => void (controller = c),
      cancel: () => this.abort(requestId),
    });
    const pending: Pending = { kind, lastSequence: -1, controller, stream };
    this.pending.set(requestId, pending);
    abortSignal?.addEventListener("abort", () => this.abort(requestId, true), { once: true });
    return pending;
  }

  /** Stops a request here and asks the server to abort the turn. */
  private abort(requestId: string, closeStream = false): void {
    const pending = this.pending.get(requestId);
    if (!pending) return;
    this.pending.delete(requestId);
    pending.settle?.(null, new ChatError("Aborted.", "aborted"));
    if (closeStream) {
      try {
        pending.controller.close();
      } catch {
        // already closed or cancelled
      }
    }
    if (this.socket.connected) this.socket.emit("chat", { type: "abort", requestId });
  }

  private receive(frame: ServerFrame): void {
    const pending = this.pending.get(frame?.requestId);
    if (!pending) return;
    switch (frame.type) {
      case "start":
        pending.settle?.(pending.stream);
        return;
      case "chunk":
        if (frame.sequence <= pending.lastSequence) return;
        if (frame.sequence !== pending.lastSequence + 1 || typeof frame.chunk?.type !== "string") {
          this.fail(frame.requestId, new ChatError("The chat stream skipped a chunk.", "protocol_error"));
          return;
        }
        pending.lastSequence = frame.sequence;
        pending.settle?.(pending.stream);
        pending.controller.enqueue(frame.chunk);
        return;
      case "end":
        pending.settle?.(pending.stream);
        this.pending.delete(frame.requestId);
        pending.controller.close();
        return;
      case "no-active":
        pending.settle?.(null);
        this.pending.delete(frame.requestId);
        pending.controller.close();
        return;
      case "error":
        this.fail(frame.requestId, new ChatError(frame.errorText ?? "The chat server returned an error.", frame.code ?? "error"));
        return;
    }
  }

  private fail(requestId: string, error: Error): void {
    const pending = this.pending.get(requestId);
    if (!pending) return;
    this.pending.delete(requestId);
    if (pending.settle) pending.settle(null, error);
    try {
      pending.controller.error(error);
    } catch {
      // already closed or cancelled
    }
  }

  private failAll(error: Error): void {
    for (const requestId of [...this.pending.keys()]) this.fail(requestId, error);
  }
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
