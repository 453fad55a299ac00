// What the assistants' transports (the HTTP routes and the socket server) are handed by the composition root: the chat
// service it built, the config, log and request limiter, and the Redis prefix their socket adapter keys by. Not the
// runtime: a Runtime fits this shape, but the transports reach nothing else of it.
import type { Config } from "../core/config.ts";
import type { Logger } from "../core/log.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { ChatService } from "./chat-service.ts";

export interface ChatDeps {
  chat: ChatService;
  config: Config;
  log: Logger;
  limiter: RateLimiter;
  /** Prefix of this deployment's Redis keys and channels (the socket.io adapter's). */
  redisPrefix: string;
}
