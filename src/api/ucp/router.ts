// The UCP REST door (version 2026-04-08): /ucp/checkout-sessions…, /ucp/orders/{id}, /ucp/catalog/…, /ucp/carts… and
// /.well-known/ucp. It reads the
// UCP-Agent header, negotiates the version, applies Idempotency-Key, runs the checkout.* tools through the executor and
// answers in the version's shapes; every answer carries the `ucp` envelope and echoes Request-Id.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Logger } from "../../core/log.ts";
import { echoRequestId, headerValue, httpError, type Gate } from "../../http/requests.ts";
import { jsonBody } from "../../http/body.ts";
import { validKey } from "../../core/idempotency.ts";
import { noteCaller } from "../../http/request-facts.ts";
import { readUcpAgent, StructuredFieldError, type UcpAgent } from "./agent-header.ts";
import { cartOperations } from "./cart.ts";
import { catalogOperations } from "./catalog.ts";
import { discoveryProfile, discoveryProfile0825, PROFILE_0825 } from "./discovery.ts";
import { ucpMcpRouter } from "./mcp.ts";
import { admitLinked, ucpResourceMetadata, withIdentityLinking } from "./identity-linking.ts";
import { DEFAULT_ADAPTER, errorBody, failureOf, negotiatedRun, idempotencyCaller, operations, UCP_BODY_LIMIT, UcpContext, type Adapter, type Answer, type UcpCall, type UcpDeps } from "./operations.ts";
import { CHECKOUT, ORDER } from "./capabilities.ts";
import { CART } from "./v2026-04-08-cart.ts";
import { LOOKUP, SEARCH } from "./v2026-04-08-catalog.ts";
import { UcpError } from "./errors.ts";
import { keepRawBody, signedRequestOf } from "./request-signatures.ts";
import { responseSignature } from "./response-signatures.ts";
import { mountSimulation } from "./testing.ts";
import * as v0111 from "./v2026-01-11.ts";

export { UCP_BODY_LIMIT } from "./operations.ts";

/** UCP agents name their request with Request-Id, older ones with X-Request-Id. */
const UCP_REQUEST_ID_HEADERS = ["request-id", "x-request-id"];

export function ucpRouter(deps: UcpDeps, gate: Gate): Router {
  const router = express.Router({ caseSensitive: true });
  const { config, log } = deps;
  const context = new UcpContext(deps);
  const json = jsonBody({ limit: UCP_BODY_LIMIT, verify: keepRawBody });

  // The shop's public signing keys (made on first use) go into both profiles' signing_keys.
  const { signingKeys } = deps;
  router.get("/.well-known/ucp", (req, res, next) => {
    echoRequestId(req, res, UCP_REQUEST_ID_HEADERS);
    signingKeys.published().then((keys) => {
      res.set("Cache-Control", "public, max-age=300");
      res.type("json").send(JSON.stringify(withIdentityLinking(discoveryProfile(config, keys))));
    }, next);
  });
  // The 2026-08-25 profile, named by the 2026-04-08 profile's supported_versions.
  router.get(PROFILE_0825, (req, res, next) => {
    echoRequestId(req, res, UCP_REQUEST_ID_HEADERS);
    signingKeys.published().then((keys) => {
      res.set("Cache-Control", "public, max-age=300");
      res.type("json").send(JSON.stringify(withIdentityLinking(discoveryProfile0825(config, keys))));
    }, next);
  });
  // The UCP resource's metadata (RFC 9728): the authorization server that links a customer (identity linking).
  const { identity } = deps;
  if (identity) router.get("/.well-known/oauth-protected-resource/ucp", (_req, res) => void res.set({ "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" }).json(ucpResourceMetadata(identity)));
  // What older clients given <base>/ucp as their server URL read: the 2026-01-11 profile.
  router.get("/ucp/.well-known/ucp", (req, res, next) => {
    echoRequestId(req, res, UCP_REQUEST_ID_HEADERS);
    signingKeys.published().then((keys) => {
      res.set("Cache-Control", "public, max-age=300");
      res.type("json").send(JSON.stringify(v0111.discoveryProfile(config, keys)));
    }, next);
  });

  const route = (mutating: boolean, capability: string, operation: (call: UcpCall, req: Request) => Promise<Answer>) => async (req: Request, res: Response) => {
    const requestId = echoRequestId(req, res, UCP_REQUEST_ID_HEADERS);
    let adapter = DEFAULT_ADAPTER;
    try {
      const agent = readAgent(req);
      const admitted = await admitLinked(gate, req, res, deps.identity);
      const negotiated = await context.negotiate(agent, admitted, signedRequestOf(req, config.publicBaseUrl), capability);
      noteCaller(res, negotiated.caller);
      adapter = negotiated.adapter;
      const call: UcpCall = { caller: negotiated.caller, requestId, executor: context.executor, shop: context.shop, adapter, active: negotiated.active, ap2: negotiated.ap2 };
      const run = () => negotiatedRun(call, capability, () => operation(call, req));
      // 2026-04-08 and 2026-08-25 checkout and order answers are signed (what agents verify with the published key).
      const signed = adapter.version !== v0111.VERSION && (capability === CHECKOUT || capability === ORDER);
      const reply = async (status: number, text: string) => {
        if (signed && status < 400) res.set(await responseSignature(signingKeys, status, text, deps.now()));
        res.status(status).type("json").send(text);
      };
      const key = mutating ? headerValue(req, "idempotency-key") : undefined;
      if (key === undefined) {
        const answer = await run();
        return await reply(answer.status, JSON.stringify(answer.body));
      }
      if (!validKey(key)) throw new UcpError(400, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
      const request = { caller: idempotencyCaller(call.caller), key, method: req.method, path: req.path, body: req.body };
      const answer = await context.idempotent(request, run);
      if (answer.replayed) res.set("Idempotent-Replayed", "true");
      await reply(answer.status, answer.text);
    } catch (error) {
      sendError(res, error, log, adapter);
    }
  };

  router.post("/ucp/checkout-sessions", json, route(true, CHECKOUT, (call, req) => cartOperations.createCheckout(call, req.body)));
  router.get("/ucp/checkout-sessions/:id", route(false, CHECKOUT, (call, req) => operations.get(call, String(req.params.id))));
  router.put("/ucp/checkout-sessions/:id", json, route(true, CHECKOUT, (call, req) => operations.update(call, String(req.params.id), req.body)));
  router.post("/ucp/checkout-sessions/:id/complete", json, route(true, CHECKOUT, (call, req) => operations.complete(call, String(req.params.id), req.body)));
  router.post("/ucp/checkout-sessions/:id/cancel", json, route(true, CHECKOUT, (call, req) => operations.cancel(call, String(req.params.id))));
  router.get("/ucp/orders/:id", route(false, ORDER, (call, req) => operations.order(call, String(req.params.id))));
  router.put("/ucp/orders/:id", json, route(true, ORDER, (call, req) => operations.updateOrder(call, context, String(req.params.id), req.body)));
  router.post("/ucp/catalog/search", json, route(false, SEARCH, (call, req) => catalogOperations.search(call, req.body)));
  router.post("/ucp/catalog/lookup", json, route(false, LOOKUP, (call, req) => catalogOperations.lookup(call, req.body)));
  router.post("/ucp/catalog/product", json, route(false, LOOKUP, (call, req) => catalogOperations.product(call, req.body)));
  router.post("/ucp/carts", json, route(true, CART, (call, req) => cartOperations.create(call, req.body)));
  router.get("/ucp/carts/:id", route(false, CART, (call, req) => cartOperations.get(call, String(req.params.id))));
  router.put("/ucp/carts/:id", json, route(true, CART, (call, req) => cartOperations.update(call, String(req.params.id), req.body)));
  router.post("/ucp/carts/:id/cancel", json, route(true, CART, (call, req) => cartOperations.cancel(call, String(req.params.id))));
  router.use(ucpMcpRouter(context, gate));
  mountSimulation(router, config, deps.executor, (res, status, code, content) => {
    res.status(status).type("json").send(JSON.stringify(v0111.error(code, content)));
  });

  router.use("/ucp", (req: Request, res: Response) => {
    echoRequestId(req, res, UCP_REQUEST_ID_HEADERS);
    sendError(res, new UcpError(404, "not_found", `No UCP endpoint ${req.method} ${req.path}.`), log);
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith("/ucp") && req.path !== "/.well-known/ucp") return next(error);
    echoRequestId(req, res, UCP_REQUEST_ID_HEADERS);
    sendError(res, httpError(error), log);
  });
  return router;
}

/** Reads UCP-Agent (400 invalid_profile_url when it is not a structured-field dictionary with an http(s) profile). */
function readAgent(req: Request): UcpAgent | null {
  try {
    return readUcpAgent(headerValue(req, "ucp-agent"));
  } catch (error) {
    if (error instanceof StructuredFieldError) throw new UcpError(400, "invalid_profile_url", `The UCP-Agent header is not a valid structured field with a profile URL (${error.message}).`);
    throw error;
  }
}

/** Any failure as the version's error response, with the HTTP status of its kind; never a stack trace. */
function sendError(res: Response, error: unknown, log: Logger, adapter: Adapter = DEFAULT_ADAPTER): void {
  const failure = failureOf(error, log);
  if (failure.retryAfter !== undefined) res.set("Retry-After", String(failure.retryAfter));
  // A refused identity-linking token has its own challenge already (src/api/ucp/identity-linking.ts).
  if (failure.status === 401 && !res.get("WWW-Authenticate")) res.set("WWW-Authenticate", 'Bearer realm="ucp"');
  res.status(failure.status).type("json").send(JSON.stringify(errorBody(failure, adapter)));
}
