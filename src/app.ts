// The express application: every door mounted on one runtime, subscribed to its order events (src/compose.ts).
import express, { type NextFunction, type Request, type Response } from "express";
import { trustProxy } from "./core/client-address.ts";
import { NotFound } from "./core/errors.ts";
import type { Runtime } from "./runtime.ts";
import { acpDeps, authorizationServer, composeDoors, ucpDeps, webDeps } from "./compose.ts";
import { MCP_SCOPES } from "./api/oauth/authorization-server.ts";
import { SHOPPER_SCOPES } from "./tools/keys/shopper-scopes.ts";
import { oauthAdmitted } from "./api/oauth/admission.ts";
import { protectedResourceHandler, type McpOAuth } from "./api/mcp-oauth.ts";
import { openApiDocument } from "./api/openapi.ts";
import { httpError, requestId, sendProblem, type Gate } from "./http/requests.ts";
import { restRouter } from "./api/rest.ts";
import { ResultCache } from "./http/result-cache.ts";
import { traceRequests } from "./http/trace.ts";
import { sessionRouter } from "./api/session-routes.ts";
import { webhookRouter } from "./api/stripe-webhook.ts";
import { lazyDoor, lazyHandler } from "./http/lazy.ts";
import { Assets } from "./web/assets.ts";
import { chatRouter } from "./assistants/http.ts";
import { metricsHandler } from "./api/metrics.ts";
import { observe } from "./http/observe.ts";

/** Paths the OAuth authorization server answers: its endpoints and its two discovery documents (RFC 8414, OpenID). */
const OAUTH_PATHS = /^\/(oauth\/|\.well-known\/(openid-configuration|oauth-authorization-server)$)/;

/** Prefixes of the paths the MCP door (/api/mcp) and the REST door (/api/v1/tools, /api/v1/tools/<name>) route. */
const MCP_PATHS = /^\/api\/mcp/i;
const REST_PATHS = /^\/api\/v1\/tools/i;
/** The paths the UCP door's router (case-sensitive) and the ACP door's serve: only these load them. */
const UCP_PATHS = /^\/(ucp(\/|$)|\.well-known\/ucp\/?$|\.well-known\/oauth-protected-resource\/ucp\/?$)/;
const ACP_PATHS = /^\/(acp(\/|$)|\.well-known\/acp\.json\/?$)/;

export function createApp(runtime: Runtime): express.Express {
  composeDoors(runtime);
  const app = express();
  app.set("etag", false);
  app.set("x-powered-by", false);
  app.set("trust proxy", trustProxy(runtime.config.trustProxy));
  const gate: Gate = { auth: runtime.auth, limiter: runtime.limiter, log: runtime.log, sessionCookie: (id) => runtime.sessions.cookie(id) };
  // First the request's trace span, then the access log and metrics (which read the span's trace id), whichever door answers.
  app.use(traceRequests());
  const logRequests = runtime.config.logLevel === "debug" || runtime.config.logLevel === "info";
  app.use(observe({ metrics: runtime.metrics, log: logRequests, knownTool: (name) => runtime.registry.get(name) !== undefined }));

  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  app.get("/metrics", metricsHandler(runtime.metrics, gate, runtime.config.metricsPublic));
  app.get("/readyz", async (_req, res) => {
    if (runtime.draining) {
      res.status(503).json({ ok: false, draining: true });
      return;
    }
    try {
      await runtime.database.query("SELECT 1");
      res.json({ ok: true, database: runtime.database.kind });
    } catch {
      res.status(503).json({ ok: false, database: runtime.database.kind });
    }
  });

  // The two tool doors first: every router a request passes on its way costs it a few microseconds, and these are the hot
  // paths. A door's router is entered only by a path it may serve, so an MCP call no longer walks the REST router first.
  const cache = new ResultCache(runtime.executor, runtime.collaborators.catalog);
  const rest = restRouter(runtime.executor, gate, cache);
  const oauth = authorizationServer(runtime);
  const resource: McpOAuth = {
    issuer: oauth.issuer,
    resource: oauth.resource,
    scopes: MCP_SCOPES,
    shopperScopes: SHOPPER_SCOPES,
    required: runtime.config.mcpOAuthRequired,
    verify: (token) => oauth.verify(token),
  };
  // The doors below load with their first request (src/http/lazy.ts): a process serving only the storefront never
  // loads the MCP SDK, the UCP and ACP doors' routers, nor one serving only tools the web pages.
  const mcp = lazyHandler(async () => (await import("./api/mcp.ts")).mcpRouter(runtime.executor, gate, runtime.config, cache, resource));
  app.use((req: Request, res: Response, next: NextFunction) => {
    // req.path is the pathname the routers match (parsed once per request); their routes ignore case, and so does this.
    const path = req.path;
    if (MCP_PATHS.test(path)) mcp(req, res, next);
    else if (REST_PATHS.test(path)) rest(req, res, next);
    else if (OAUTH_PATHS.test(path)) {
      // RFC 8414's document is the OpenID one (a superset): the provider serves it under its own name.
      if (path === "/.well-known/oauth-authorization-server") req.url = "/.well-known/openid-configuration";
      oauthAdmitted(gate, req, res)
        .then((admitted) => (admitted ? oauth.handle(req, res) : undefined))
        .catch(next);
    } else next();
  });
  const protectedResource = protectedResourceHandler(resource);
  app.get(["/.well-known/oauth-protected-resource/api/mcp", "/.well-known/oauth-protected-resource"], protectedResource);
  // Stripe signs the raw body: the webhook route parses it itself (express.raw); no door above parses its path.
  app.use(webhookRouter({ executor: runtime.executor, payments: runtime.collaborators.payments, config: runtime.config, log: runtime.log }));
  app.use(sessionRouter(runtime.sessions, runtime.executor, gate));
  app.use(lazyDoor(UCP_PATHS, async () => (await import("./api/ucp/router.ts")).ucpRouter({ ...ucpDeps(runtime), identity: oauth }, gate)));
  app.use(lazyDoor(ACP_PATHS, async () => (await import("./api/acp/router.ts")).acpRouter(acpDeps(runtime), gate)));

  let openapi: string | undefined;
  app.get("/api/v1/openapi.json", (_req, res) => {
    openapi ??= JSON.stringify(openApiDocument(runtime.registry, runtime.config.publicBaseUrl));
    res.type("json").send(openapi);
  });
  app.use(chatRouter(runtime));

  app.use("/api", (req: Request, res: Response) => {
    sendProblem(res, new NotFound(`No endpoint ${req.method} ${req.originalUrl}.`), requestId(req));
  });
  // The web pages last: their 404 page answers every path no door above claimed.
  // The built assets are read now, so a missing build still fails the start-up (src/main.ts), not the first page.
  const assets = new Assets();
  app.use(lazyHandler(async () => (await import("./web/index.ts")).webRouter(webDeps(runtime, oauth), assets)));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendProblem(res, httpError(error), requestId(req), runtime.log);
  });
  return app;
}
