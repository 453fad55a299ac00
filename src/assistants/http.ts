// The HTTP transport of the assistants: POST /api/v1/chat/<assistant> streams the UI message stream as SSE for a stock useChat.
import express, { type Request, type Response, type Router } from "express";
import { jsonBody } from "../http/body.ts";
import { admitCaller, requestId, sendProblem } from "../http/requests.ts";
import { Forbidden, NotFound, Unauthorized } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import type { ChatDeps } from "./deps.ts";
import type { Credentials } from "./identity.ts";
import { loadSdk } from "./load-sdk.ts";
import { ownOrigin } from "./origin.ts";
import { ASSISTANTS, type AssistantName } from "./assistant-profiles.ts";
import { parseTurnRequest } from "./request.ts";
import type { Follower, Following, StreamFrame } from "./turns/streams.ts";
import { requestAddress } from "../http/address.ts";

/** Stock clients send the whole history with every request; only its last message is read. */
const BODY_LIMIT = "2mb";

/**
 * - `POST /api/v1/chat/<assistant>`: DefaultChatTransport body `{id, messages, trigger, messageId}` (or `{id, message}`),
 *   answered with the UI message stream as server-sent events (`x-vercel-ai-ui-message-stream: v1`). Closing the request
 *   aborts the turn.
 * - `GET /api/v1/chat/<assistant>`: whether the assistant is available, and the caller's chats.
 * - `GET /api/v1/chat/<assistant>/<chatId>`: one of the caller's chats with its messages (to reopen it).
 * - `GET /api/v1/chat/<assistant>/<chatId>/stream`: replays the chat's running (or just finished) turn, on whichever
 *   process runs it (as a socket `resume` does); 204 when none.
 * Storefront: the `shop_session` cookie. Admin: `Authorization: Bearer <API key>` or the staff login cookie.
 */
export function chatRouter(deps: ChatDeps): Router {
  const router = express.Router();
  const { chat, log } = deps;
  const route =
    (handler: (req: Request, res: Response, assistant: AssistantName, caller: Caller) => Promise<void>) => async (req: Request, res: Response) => {
      const id = requestId(req);
      try {
        const assistant = String(req.params.assistant) as AssistantName;
        if (!ASSISTANTS.includes(assistant)) throw new NotFound(`There is no assistant "${assistant}".`);
        if (!ownOrigin(req, deps.config.publicBaseUrl)) throw new Forbidden("Chats answer only pages of this shop (the Origin is another site).");
        const caller = await chat.identify(assistant, credentialsOf(req, assistant));
        await admitCaller(deps.limiter, caller, res);
        await handler(req, res, assistant, caller);
      } catch (error) {
        if (res.headersSent) res.end();
        else sendProblem(res, error, id, log);
      }
    };

  router.get("/api/v1/chat/:assistant", route(async (_req, res, assistant, caller) => {
    res.json({ ok: true, result: await chat.overview(assistant, caller) });
  }));

  router.get("/api/v1/chat/:assistant/:chatId", route(async (req, res, assistant, caller) => {
    const found = await chat.get(assistant, caller, String(req.params.chatId));
    if (!found) throw new NotFound("You have no chat with that id.");
    res.json({ ok: true, result: found });
  }));

  router.get("/api/v1/chat/:assistant/:chatId/stream", route(async (req, res, assistant, caller) => {
    const key = chat.streamKey(assistant, caller, String(req.params.chatId));
    const found = await pipe(res, deps.config.chatResumeGraceMs, (follower) => chat.resume(key, follower));
    if (!found) res.status(204).end();
  }));

  router.post("/api/v1/chat/:assistant", jsonBody({ limit: BODY_LIMIT, strict: true }), route(async (req, res, assistant, caller) => {
    // The staff cookie also rides along on requests other sites make; a browser names its Origin on every POST.
    if (caller.kind === "staff" && req.headers.origin === undefined) throw new Forbidden("A chat post with the staff login cookie must come from the shop's pages (Origin header).");
    const stream = await chat.start(assistant, caller, await parseTurnRequest(req.body));
    await pipe(res, 0, async (follower) => {
      follower.start();
      return stream.attach(follower);
    });
  }));

  return router;
}

/**
 * Writes the turn that `follow` finds as SSE, from the moment it is found; false when it found none (nothing written). A
 * closed connection detaches (and aborts the turn after `graceMs` alone).
 */
async function pipe(res: Response, graceMs: number, follow: (follower: Follower) => Promise<Following | undefined>): Promise<boolean> {
  const { UI_MESSAGE_STREAM_HEADERS } = await loadSdk();
  const write = (value: unknown) => res.write(`data: ${JSON.stringify(value)}\n\n`);
  const follower: Follower = {
    start: () => void res.writeHead(200, UI_MESSAGE_STREAM_HEADERS),
    send(frame: StreamFrame) {
      if (frame.type === "chunk") return void write(frame.chunk);
      if (frame.type === "error") write({ type: "error", errorText: frame.errorText });
      res.end("data: [DONE]\n\n");
    },
  };
  // Also when the connection closed while the turn was being looked for.
  const closed = new Promise<void>((resolve) => res.once("close", resolve));
  const following = await follow(follower);
  if (following) void closed.then(() => following.detach(graceMs));
  return following !== undefined;
}

/** The cookie, and for the admin assistant the Bearer key (the storefront assistant acts only as the cookie's session). */
function credentialsOf(req: Request, assistant: AssistantName): Credentials {
  const header = assistant === "admin" ? req.headers.authorization : undefined;
  const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (header !== undefined && bearer === undefined) throw new Unauthorized("The Authorization header must be `Bearer <API key>`.");
  return {
    cookie: req.headers.cookie,
    token: bearer,
    address: requestAddress(req),
  };
}
