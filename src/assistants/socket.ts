// The socket.io transport of the assistants: namespaces /storefront and /admin, event `chat` carrying AI SDK WebSocketChatTransport frames.
import type { Server as HttpServer } from "node:http";
import type { WebSocketChatTransportResponse } from "ai";
import type { Redis } from "ioredis";
import { Server, type Namespace, type Socket } from "socket.io";
import { clientAddress } from "../core/client-address.ts";
import { problemOf, toToolError } from "../core/errors.ts";
import type { ChatDeps } from "./deps.ts";
import type { Credentials } from "./identity.ts";
import { loadSdk } from "./load-sdk.ts";
import { ownOrigin } from "./origin.ts";
import { ASSISTANTS, type AssistantName } from "./assistant-profiles.ts";
import { parseTurnRequest } from "./request.ts";
import { TurnRelay } from "./turns/relay.ts";
import type { Follower, Following } from "./turns/streams.ts";

export interface ChatServer {
  io: Server;
  /** Aborts running turns, disconnects every socket, leaves the Redis adapter and closes the HTTP server it is attached to. */
  close(): Promise<void>;
}

/** A request of a socket: its turn once it is found or started (undefined while it starts), and whether it was aborted meanwhile. */
interface Request {
  following?: Following;
  aborted: boolean;
}

const PEER_TIMEOUT_MS = 3_000;

/**
 * Attaches socket.io to the HTTP server (path /socket.io/); call it before the server listens. With REDIS_URL the Redis
 * adapter joins every process: a `resume` (or an HTTP replay) that lands on another process than the one running the
 * turn follows it through the relay (src/assistants/turns/relay.ts).
 */
export async function attachChat(httpServer: HttpServer, deps: ChatDeps): Promise<ChatServer> {
  const cluster = deps.config.redisUrl ? await redisAdapter(deps, deps.config.redisUrl) : undefined;
  const io = new Server(httpServer, {
    serveClient: false,
    maxHttpBufferSize: 2_000_000,
    allowRequest: (req, callback) => {
      const allowed = ownOrigin(req, deps.config.publicBaseUrl);
      callback(allowed ? null : "foreign origin", allowed);
    },
  });
  const clients = cluster?.clients ?? [];
  if (cluster) {
    io.adapter(cluster.adapter);
    deps.chat.relay = new TurnRelay(io.of("/"), deps.chat.streams);
  }
  for (const assistant of ASSISTANTS) serve(io.of(`/${assistant}`), assistant, deps);
  return {
    io,
    async close() {
      await deps.chat.close();
      // Let the adapter's (un)subscribe commands get their replies before the connections go (QUIT waits for them).
      await Promise.all(clients.map((client) => ready(client, PEER_TIMEOUT_MS)));
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

/** The Redis adapter and its two connections; ioredis and the adapter load only with REDIS_URL. */
async function redisAdapter(deps: ChatDeps, url: string) {
  const [{ createAdapter }, { Redis }] = await Promise.all([import("@socket.io/redis-adapter"), import("ioredis")]);
  // Commands wait through a Redis outage instead of failing: the adapter does not catch every rejection it causes.
  const pub = new Redis(url, { maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  for (const client of [pub, sub]) client.on("error", (error: Error) => deps.log.warn("socket.io redis error", { error: error.message }));
  return { adapter: createAdapter(pub, sub, { key: `${deps.redisPrefix}socket.io`, requestsTimeout: PEER_TIMEOUT_MS }), clients: [pub, sub] };
}

function serve(nsp: Namespace, assistant: AssistantName, deps: ChatDeps): void {
  const { chat } = deps;
  const grace = deps.config.chatResumeGraceMs;

  nsp.use((socket, next) => {
    const credentials = credentialsOf(socket, assistant, deps.config.trustProxy);
    chat.identify(assistant, credentials).then(
      () => {
        socket.data.credentials = credentials;
        next();
      },
      (error: unknown) => {
        const problem = problemOf(toToolError(error));
        next(Object.assign(new Error(problem.detail), { data: { status: problem.status, code: problem.code } }));
      },
    );
  });

  nsp.on("connection", (socket) => {
    const requests = new Map<string, Request>();
    const credentials = socket.data.credentials as Credentials;
    const emit = (frame: WebSocketChatTransportResponse & { code?: string }) => socket.emit("chat", frame);
    const followerFor = (requestId: string): Follower => ({
      start: () => emit({ type: "start", requestId }),
      send(frame) {
        emit({ ...frame, requestId });
        if (frame.type !== "chunk") requests.delete(requestId);
      },
    });

    socket.on("chat", async (raw: unknown) => {
      const validated = await validateFrame(raw);
      if (!validated.success) {
        const requestId = (raw as { requestId?: unknown } | null)?.requestId;
        emit({ type: "error", requestId: typeof requestId === "string" ? requestId : "", errorText: "Invalid chat frame.", code: "invalid_frame" });
        return;
      }
      const frame = validated.data;
      const { requestId } = frame;
      if (frame.type === "abort") {
        const request = requests.get(requestId);
        requests.delete(requestId);
        if (request) request.aborted = true;
        request?.following?.abort("aborted by the client");
        return;
      }
      // One turn per request id: a second would take the first one's abort and detach.
      if (requests.has(requestId)) {
        emit({ type: "error", requestId, errorText: "This socket already has a request with this requestId running; use a new requestId for each request.", code: "request_id_in_use" });
        return;
      }
      const request: Request = { aborted: false };
      requests.set(requestId, request);
      try {
        const caller = await chat.identify(assistant, credentials);
        const follower = followerFor(requestId);
        if (frame.type === "send") {
          const parsed = await parseTurnRequest({ id: frame.id, trigger: frame.trigger, messageId: frame.messageId, messages: frame.messages });
          request.following = (await chat.start(assistant, caller, parsed)).attach(follower);
        } else {
          request.following = await chat.resume(chat.streamKey(assistant, caller, frame.id), follower, frame.lastSequence ?? -1);
          if (!request.following) {
            requests.delete(requestId);
            emit({ type: "no-active", requestId });
            return;
          }
        }
        // Aborted or disconnected while the turn started or was looked for.
        if (request.aborted) request.following?.abort("aborted by the client");
        else if (socket.disconnected) request.following?.detach(grace);
      } catch (error) {
        requests.delete(requestId);
        const problem = problemOf(toToolError(error));
        emit({ type: "error", requestId, errorText: problem.detail, code: problem.code });
      }
    });

    socket.on("chats", async (request: unknown, ack: unknown) => {
      if (typeof ack !== "function") return;
      try {
        const caller = await chat.identify(assistant, credentials);
        const id = (request as { id?: unknown } | null)?.id;
        if (typeof id === "string") {
          ack({ ok: true, result: await chat.get(assistant, caller, id) });
        } else {
          ack({ ok: true, result: await chat.overview(assistant, caller) });
        }
      } catch (error) {
        ack(problemOf(toToolError(error)));
      }
    });

    socket.on("disconnect", () => {
      for (const request of requests.values()) request.following?.detach(grace);
      requests.clear();
    });
  });
}

/** The SDK's check of a frame (the SDK loads with the first frame, not at start-up), on its last message only. */
async function validateFrame(raw: unknown) {
  const { safeValidateWebSocketChatTransportRequest } = await loadSdk();
  return safeValidateWebSocketChatTransportRequest({ value: lastMessageOnly(raw) });
}

/**
 * A `send` frame with only its last message: stock clients send the whole history, which the SDK's frame check validates
 * message by message (more work each turn as a chat grows), while the server reads the last one alone (src/assistants/request.ts).
 */
function lastMessageOnly(raw: unknown): unknown {
  const frame = raw as { type?: unknown; messages?: unknown } | null;
  if (frame?.type !== "send" || !Array.isArray(frame.messages) || frame.messages.length <= 1) return raw;
  return { ...frame, messages: frame.messages.slice(-1) };
}

/** Resolves once the client is connected, or after `timeoutMs` (it may be reconnecting to a Redis that is down). */
function ready(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    client.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The handshake's Cookie header, its client address (TRUST_PROXY), and for the admin namespace the API key of `auth: { token }`. */
function credentialsOf(socket: Socket, assistant: AssistantName, trustProxy: string): Credentials {
  const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  return {
    cookie: socket.handshake.headers.cookie,
    token: assistant === "admin" && typeof token === "string" ? token : undefined,
    address: clientAddress(socket.request, trustProxy),
  };
}
