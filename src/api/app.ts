// The express application: every door mounted on one runtime.
import express, { type NextFunction, type Request, type Response } from "express";
import { NotFound, toToolError, ToolError } from "../core/errors.ts";
import type { Runtime } from "../runtime.ts";
import { openApiDocument } from "./openapi.ts";
import { requestId, sendProblem, type Gate } from "./http.ts";
import { mcpRouter } from "./mcp.ts";
import { restRouter } from "./rest.ts";
import { paymentPageRouter } from "./payment-page.ts";
import { sessionRouter } from "./session.ts";
import { webhookRouter } from "./webhooks.ts";
import { publicPagesRouter, sendErrorPage } from "../web/public-pages.ts";

export function createApp(runtime: Runtime): express.Express {
  const app = express();
  app.set("etag", false);
  app.set("x-powered-by", false);
  app.set("trust proxy", "loopback");
  const gate: Gate = { auth: runtime.auth, limiter: runtime.limiter, log: runtime.log };

  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  app.get("/readyz", async (_req, res) => {
    try {
      await runtime.database.query("SELECT 1");
      res.json({ ok: true, database: runtime.database.kind });
    } catch {
      res.status(503).json({ ok: false, database: runtime.database.kind });
    }
  });

  // Stripe signs the raw body: the webhook route parses it itself (express.raw), before any JSON parser.
  app.use(webhookRouter(runtime));
  app.use(sessionRouter(runtime.sessions, runtime.database.prisma, runtime.services.mailer, gate));
  app.use(paymentPageRouter(runtime));

  let openapi: string | undefined;
  app.get("/api/v1/openapi.json", (_req, res) => {
    openapi ??= JSON.stringify(openApiDocument(runtime.registry, runtime.config.publicBaseUrl));
    res.type("json").send(openapi);
  });
  app.use(restRouter(runtime.executor, gate));
  app.use(publicPagesRouter(runtime));
  app.use(mcpRouter(runtime.executor, gate));

  app.use("/api", (req: Request, res: Response) => {
    sendProblem(res, new NotFound(`No endpoint ${req.method} ${req.originalUrl}.`), requestId(req));
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const id = requestId(req);
    const mapped = toToolError(httpError(error));
    if (mapped.status >= 500) runtime.log.error("request failed", { requestId: id, path: req.path, error: String(error) });
    // Pages answer pages (an undecodable /info/%E0%A4%A is a 400 page); the API and everything else answer problems.
    if (req.method === "GET" && !req.path.startsWith("/api/")) sendErrorPage(res, mapped.status);
    else sendProblem(res, mapped, id);
  });
  return app;
}

/**
 * Translates what express, body-parser and raw-body throw (bad JSON, too large, bad charset, a body that is not the
 * gzip it claims, an undecodable %-escape in the path) into problems: their 4xx `status` is honoured, never a 500.
 */
function httpError(error: unknown): unknown {
  const { type, status, statusCode } = error as { type?: unknown; status?: unknown; statusCode?: unknown };
  if (type === "entity.parse.failed") return new ToolError(400, "invalid_json", "Invalid JSON", "The request body is not valid JSON.");
  if (type === "entity.too.large") return new ToolError(413, "payload_too_large", "Payload too large", "The request body is too large.");
  if (type === "charset.unsupported" || type === "encoding.unsupported") {
    return new ToolError(415, "unsupported_media_type", "Unsupported media type", "Send the body as UTF-8 JSON (identity, gzip, deflate or br encoded).");
  }
  const given = typeof status === "number" ? status : statusCode;
  if (typeof given === "number" && given >= 400 && given < 500) {
    return new ToolError(given, "bad_request", "Bad request", "The request could not be read: a malformed path, header or body encoding.");
  }
  return error;
}
