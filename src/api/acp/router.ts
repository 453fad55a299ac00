// The Agentic Commerce Protocol REST door (2026-04-17): /acp/checkout_sessions…, the product feed and
// /.well-known/acp.json. It reads the transport — Bearer key, API-Version, Signature + Timestamp, Idempotency-Key,
// Request-Id — and runs the shared operations (operations.ts: admission, the checkout.* tools, idempotent runs), answering
// sessions, business outcomes as messages and request errors as the flat error. The MCP binding (mcp.ts) shares them.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { jsonBody } from "../../http/body.ts";
import { admit, echoRequestId, headerValue, httpError, type Gate } from "../../http/requests.ts";
import { discovery } from "./discovery.ts";
import { acpMcpRouter } from "./mcp.ts";
import { ACP_BODY_LIMIT, AcpContext, AcpError, failureOf, operations, SUPPORTED_VERSIONS, type AcpCall, type AcpDeps, type Answer } from "./operations.ts";
import * as v0417 from "./v2026-04-17.ts";

export { ACP_BODY_LIMIT, ACP_RULES, SUPPORTED_VERSIONS } from "./operations.ts";

export function acpRouter(deps: AcpDeps, gate: Gate): Router {
  const router = express.Router({ caseSensitive: true });
  const { config, feed, log } = deps;
  const context = new AcpContext(deps);
  const json = jsonBody({ limit: ACP_BODY_LIMIT });

  router.get("/.well-known/acp.json", (req, res) => {
    echoRequestId(req, res);
    res.set("Cache-Control", "public, max-age=3600");
    res.type("json").send(JSON.stringify(discovery(config, SUPPORTED_VERSIONS)));
  });

  // The product feed (pinned paths): public catalogue data like the storefront's, served from memory per catalogue version.
  const feedFile = (pick: "metadata" | "products", type: string) => async (req: Request, res: Response) => {
    echoRequestId(req, res);
    try {
      const files = await feed.files();
      res.set("Cache-Control", "public, max-age=300");
      res.type(type).send(files[pick]);
    } catch (error) {
      send(res, failureOf(error, log));
    }
  };
  router.get("/acp/feed/metadata.json", feedFile("metadata", "application/json"));
  router.get("/acp/feed/products.jsonl", feedFile("products", "application/jsonl; charset=utf-8"));

  router.use(acpMcpRouter(context, gate));

  const route = (mutating: boolean, run: (call: AcpCall, req: Request) => Promise<Answer>) => async (req: Request, res: Response) => {
    const requestId = echoRequestId(req, res);
    const key = mutating ? headerValue(req, "idempotency-key") : undefined;
    if (key !== undefined) res.set("Idempotency-Key", key.slice(0, 255));
    try {
      const admitted = await context.admit(
        await admit(gate, req, res),
        { version: headerValue(req, "api-version"), signature: headerValue(req, "signature"), timestamp: headerValue(req, "timestamp") },
        { method: req.method, path: req.path, body: mutating ? req.body : undefined },
      );
      const call: AcpCall = { caller: admitted, requestId, executor: deps.executor, shop: context.shop };
      if (!mutating) return send(res, await run(call, req));
      if (key === undefined) throw new AcpError(400, "idempotency_key_required", "Idempotency-Key header is required on all POST requests");
      // Keys are scoped to the caller and the endpoint: the same key on another path is another key.
      const answer = await context.idempotent(call, key, req.path, req.body, () => run(call, req));
      if (answer.replayed) res.set("Idempotent-Replayed", "true");
      res.set(answer.headers).status(answer.status).type("json").send(answer.text);
    } catch (error) {
      send(res, failureOf(error, log));
    }
  };
  const id = (req: Request) => String(req.params.id);

  router.post("/acp/checkout_sessions", json, route(true, (call, req) => operations.create(call, req.body)));
  router.get("/acp/checkout_sessions/:id", route(false, (call, req) => operations.get(call, id(req))));
  router.post("/acp/checkout_sessions/:id", json, route(true, (call, req) => operations.update(call, id(req), req.body)));
  router.post("/acp/checkout_sessions/:id/complete", json, route(true, (call, req) => operations.complete(call, id(req), req.body)));
  router.post("/acp/checkout_sessions/:id/cancel", json, route(true, (call, req) => operations.cancel(call, id(req), req.body)));

  router.use("/acp", (req: Request, res: Response) => {
    echoRequestId(req, res);
    send(res, { status: 404, body: v0417.error(404, "not_found", `No ACP endpoint ${req.method} ${req.path}.`), headers: {} });
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith("/acp")) return next(error);
    echoRequestId(req, res);
    const key = req.method === "POST" ? headerValue(req, "idempotency-key") : undefined;
    if (key !== undefined) res.set("Idempotency-Key", key.slice(0, 255));
    send(res, failureOf(httpError(error), log));
  });
  return router;
}

function send(res: Response, answer: Answer & { headers?: Record<string, string> }): void {
  if (answer.headers) res.set(answer.headers);
  res.status(answer.status).type("json").send(JSON.stringify(answer.body));
}
