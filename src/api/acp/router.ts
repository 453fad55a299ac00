// The Agentic Commerce Protocol REST door (2026-04-17): /acp/checkout_sessions… and /.well-known/acp.json. It authenticates the agent platform's
// Bearer key (scope checkout:agent), checks API-Version, verifies Signature + Timestamp when the key has a signing
// secret, applies ACP's Idempotency-Key rules through the shared store, runs the checkout.* tools through the executor
// and answers in the version's shapes: sessions, business outcomes as messages, request errors as the flat error.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { z } from "zod";
import { Invalid, toToolError, ToolError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime.ts";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import type { Caller } from "../../tools/context.ts";
import { fieldErrors } from "../../tools/executor.ts";
import { acpSigningSecret } from "../../tools/keys/service.ts";
import { hasScope } from "../../tools/scopes.ts";
import { paymentPageUrl } from "../../tools/orders/payments/provider.ts";
import { admit, echoRequestId, headerValue, httpError, type Gate } from "../../http/requests.ts";
import { IdempotencyRefusal, IdempotencyStore, type IdempotencyRules } from "../../http/idempotency.ts";
import { discovery } from "./discovery.ts";
import { AcpFeed } from "./feed.ts";
import { checkSignature, type SignatureProblem } from "./signature.ts";
import * as v0417 from "./v2026-04-17.ts";

export const ACP_BODY_LIMIT = "256kb";
export const SUPPORTED_VERSIONS = [v0417.VERSION];

/** ACP's idempotency rules (RFC agentic_checkout §6): 422 for another body, 409 while the first still runs. */
export const ACP_RULES: IdempotencyRules = {
  conflict: { status: 422, code: "idempotency_conflict" },
  inFlight: { status: 409, code: "idempotency_in_flight" },
  canonical: true,
};

interface Answer {
  status: number;
  body: unknown;
}

/** A protocol error: this HTTP status and the flat error body. */
class AcpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  readonly extra: Record<string, unknown>;
  constructor(status: number, code: string, message: string, param?: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.param = param;
    this.extra = extra;
  }
}

interface AcpCall {
  req: Request;
  caller: Caller;
  requestId: string;
  runtime: Runtime;
  shop: v0417.Shop;
}

const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  signature_missing: "This key signs its requests: Signature and Timestamp headers are required.",
  timestamp_invalid: "Timestamp must be an RFC 3339 date-time.",
  timestamp_stale: "Timestamp is too far from the server's clock (more than 5 minutes).",
  signature_invalid: "Signature does not match the request.",
};

export function acpRouter(runtime: Runtime, gate: Gate): Router {
  const router = express.Router({ caseSensitive: true });
  const { config } = runtime;
  const store = new IdempotencyStore(runtime.database.prisma, runtime.now, ACP_RULES);
  const shop: v0417.Shop = { baseUrl: config.publicBaseUrl, permalink: (orderId) => paymentPageUrl(config.publicBaseUrl, runtime.secret, orderId) };
  const json = express.json({ limit: ACP_BODY_LIMIT, strict: false, type: () => true });

  router.get("/.well-known/acp.json", (req, res) => {
    echoRequestId(req, res);
    res.set("Cache-Control", "public, max-age=3600");
    res.type("json").send(JSON.stringify(discovery(config, SUPPORTED_VERSIONS)));
  });

  // The product feed (pinned paths): public catalogue data like the storefront's, served from memory per catalogue version.
  const feed = new AcpFeed(runtime.services.catalog, runtime.database.prisma, config.publicBaseUrl, runtime.now);
  const feedFile = (pick: "metadata" | "products", type: string) => async (req: Request, res: Response) => {
    echoRequestId(req, res);
    try {
      const files = await feed.files();
      res.set("Cache-Control", "public, max-age=300");
      res.type(type).send(files[pick]);
    } catch (error) {
      send(res, errorAnswer(error, runtime, res));
    }
  };
  router.get("/acp/feed/metadata.json", feedFile("metadata", "application/json"));
  router.get("/acp/feed/products.jsonl", feedFile("products", "application/jsonl; charset=utf-8"));

  const route = (mutating: boolean, run: (call: AcpCall) => Promise<Answer>) => async (req: Request, res: Response) => {
    const requestId = echoRequestId(req, res);
    const key = mutating ? headerValue(req, "idempotency-key") : undefined;
    if (key !== undefined) res.set("Idempotency-Key", key.slice(0, 255));
    try {
      const caller = await admit(gate, req, res);
      if (caller.kind !== "key" || !caller.keyId) throw new AcpError(401, "unauthorized", "Authorization: Bearer <API key> is required.");
      if (!hasScope(caller.scopes, "checkout:agent")) throw new AcpError(403, "forbidden", "This API key lacks the checkout:agent scope.");
      const version = headerValue(req, "api-version");
      if (version === undefined) throw new AcpError(400, "missing_api_version", "The API-Version header is required.", undefined, { supported_versions: SUPPORTED_VERSIONS });
      if (!SUPPORTED_VERSIONS.includes(version)) {
        throw new AcpError(400, "unsupported_api_version", `API-Version ${version.slice(0, 20)} is not supported.`, undefined, { supported_versions: SUPPORTED_VERSIONS });
      }
      const secret = await acpSigningSecret(runtime.database.prisma, caller.keyId);
      if (secret) {
        const problem = checkSignature(secret, headerValue(req, "signature"), headerValue(req, "timestamp"), mutating ? req.body : undefined, runtime.now());
        if (problem) throw new AcpError(401, problem, SIGNATURE_MESSAGES[problem]);
      }
      const call: AcpCall = { req, caller, requestId, runtime, shop };
      if (!mutating) return send(res, await run(call));
      if (key === undefined) throw new AcpError(400, "idempotency_key_required", "Idempotency-Key header is required on all POST requests");
      if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new AcpError(400, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
      // Keys are scoped to the caller and the endpoint: the same key on another path is another key.
      const claim = await store.claim({ caller: `acp:key:${caller.keyId}:${req.path}`, key, method: req.method, path: req.path, body: req.body ?? null });
      if (claim.kind === "replay") {
        res.set("Idempotent-Replayed", "true");
        return res.status(claim.response.status).type("json").send(claim.response.body);
      }
      let result: Answer;
      try {
        result = await run(call);
      } catch (error) {
        const failure = errorAnswer(error, runtime, res);
        // A request error is an answer too (stored and replayed); only server errors release the key.
        if (failure.status >= 500) await store.release(claim.recordId);
        else await store.finish(claim.recordId, { status: failure.status, headers: { "content-type": "application/json" }, body: JSON.stringify(failure.body) });
        return send(res, failure);
      }
      const body = JSON.stringify(result.body);
      await store.finish(claim.recordId, { status: result.status, headers: { "content-type": "application/json" }, body });
      res.status(result.status).type("json").send(body);
    } catch (error) {
      send(res, errorAnswer(error, runtime, res));
    }
  };

  router.post("/acp/checkout_sessions", json, route(true, async (call) => {
    const body = parse(v0417.createRequest, call.req.body);
    const currency = body.currency.toUpperCase();
    const input = { ...v0417.toolInput(body), protocol: "acp", protocolVersion: v0417.VERSION };
    try {
      const view = await invoke<SessionView>(call, "checkout.create", input);
      if (view.currency !== currency) {
        // Nothing is charged in another currency: the session is made (so the agent can read it) and says so.
        const answer = v0417.checkout(view, call.shop);
        answer.messages.unshift({ type: "error", code: "unsupported", severity: "high", resolution: "requires_buyer_review", param: "$.currency", content_type: "plain", content: `This shop sells in ${view.currency}, not ${currency}.` });
        return { status: 201, body: answer };
      }
      return { status: 201, body: v0417.checkout(view, call.shop) };
    } catch (error) {
      throw itemError(error);
    }
  }));

  router.get("/acp/checkout_sessions/:id", route(false, async (call) => ({
    status: 200,
    body: v0417.checkout(await invoke<SessionView>(call, "checkout.get", { id: sessionId(call) }), call.shop),
  })));

  router.post("/acp/checkout_sessions/:id", json, route(true, async (call) => {
    const input = v0417.toolInput(parse(v0417.updateRequest, call.req.body));
    const id = sessionId(call);
    try {
      return { status: 200, body: v0417.checkout(await invoke<SessionView>(call, "checkout.update", { id, ...input }), call.shop) };
    } catch (error) {
      return withSession(call, id, itemError(error));
    }
  }));

  router.post("/acp/checkout_sessions/:id/complete", json, route(true, async (call) => {
    const body = parse(v0417.completeRequest, call.req.body);
    const id = sessionId(call);
    const payment = v0417.paymentInput(body);
    try {
      if (body.buyer) await invoke<SessionView>(call, "checkout.update", { id, ...v0417.toolInput({ buyer: body.buyer }) });
      return { status: 200, body: v0417.checkout(await invoke<SessionView>(call, "checkout.complete", { id, payment }), call.shop) };
    } catch (error) {
      return withSession(call, id, error);
    }
  }));

  router.post("/acp/checkout_sessions/:id/cancel", json, route(true, async (call) => {
    // The intent trace is read (a bad one is a 400) but not stored yet.
    parse(v0417.cancelRequest, call.req.body ?? {});
    const id = sessionId(call);
    try {
      return { status: 200, body: v0417.checkout(await invoke<SessionView>(call, "checkout.cancel", { id }), call.shop) };
    } catch (error) {
      if (error instanceof ToolError && error.code === "checkout_not_modifiable") {
        throw new AcpError(405, "not_cancelable", "The checkout session is already completed or canceled.");
      }
      throw error;
    }
  }));

  router.use("/acp", (req: Request, res: Response) => {
    echoRequestId(req, res);
    send(res, { status: 404, body: v0417.error(404, "not_found", `No ACP endpoint ${req.method} ${req.path}.`) });
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith("/acp")) return next(error);
    echoRequestId(req, res);
    const key = req.method === "POST" ? headerValue(req, "idempotency-key") : undefined;
    if (key !== undefined) res.set("Idempotency-Key", key.slice(0, 255));
    send(res, errorAnswer(httpError(error), runtime, res));
  });
  return router;
}

function invoke<T>(call: AcpCall, name: string, input: unknown): Promise<T> {
  return call.runtime.executor.invoke({ name, input, caller: call.caller, door: "rest", requestId: call.requestId }) as Promise<T>;
}

/** The path's session id; one that cannot be a session's is simply not found. */
function sessionId(call: AcpCall): string {
  const id = String(call.req.params.id);
  if (!/^chk_[A-Za-z0-9]{10,64}$/.test(id)) throw new AcpError(404, "not_found", "No such checkout session.");
  return id;
}

/** The body under our reading of the version: 400 naming the first offending field otherwise. */
function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new AcpError(400, "invalid_request", "The request body must be a JSON object.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error);
    const first = problems[0];
    const param = first?.path ? `$.${first.path.replace(/\.(\d+)(?=\.|$)/g, "[$1]")}` : undefined;
    throw new AcpError(400, first?.message.startsWith("Unrecognized") ? "unknown_field" : "invalid", `The request does not match ACP ${v0417.VERSION}: ${problems.slice(0, 5).map((entry) => `$.${entry.path}: ${entry.message}`).join("; ")}`, param);
  }
  return parsed.data;
}

/** Unknown or unsellable items name no session that could be returned: a flat 400 pointing at the item. */
function itemError(error: unknown): unknown {
  if (!(error instanceof ToolError) || (error.code !== "item_unavailable" && error.code !== "variant_required")) return error;
  const index = /^lines\[(\d+)\]/.exec(error.message)?.[1];
  return new AcpError(400, error.code, error.message, index === undefined ? "$.line_items" : `$.line_items[${index}].id`);
}

/** A refused change or completion of an existing session: 200 with the session as it stands and the refusal first. */
async function withSession(call: AcpCall, id: string, error: unknown): Promise<Answer> {
  if (!(error instanceof ToolError) || error.status !== 422) throw error;
  if (error.code === "checkout_not_modifiable") throw new AcpError(409, "checkout_not_modifiable", error.message);
  if (error.code === "payment_handler_unknown") throw new AcpError(400, "invalid_payment_handler", error.message, "$.payment_data.handler_id");
  const body = v0417.checkout(await invoke<SessionView>(call, "checkout.get", { id }), call.shop);
  const code = v0417.errorCode(error.code);
  const refused: v0417.AcpMessage = {
    type: "error",
    code,
    severity: "high",
    resolution: code === "payment_declined" ? "requires_buyer_input" : "recoverable",
    ...(code === "payment_declined" ? { param: "$.payment_data" } : {}),
    content_type: "plain",
    content: error.message,
  };
  body.messages = [refused, ...body.messages];
  return { status: 200, body };
}

/** Any failure as the flat error with the HTTP status of its kind; never a stack trace. */
function errorAnswer(error: unknown, runtime: Runtime, res: Response): Answer {
  if (error instanceof AcpError) {
    if (error.status === 401) res.set("WWW-Authenticate", 'Bearer realm="acp"');
    if (error.status === 405) res.set("Allow", "GET");
    return { status: error.status, body: { ...v0417.error(error.status, error.code, error.message, error.param), ...error.extra } };
  }
  const mapped = toToolError(error);
  let { status } = mapped;
  let message = mapped.message;
  let param: string | undefined;
  if (mapped instanceof Invalid && mapped.errors?.length) {
    message += ` ${mapped.errors.slice(0, 5).map((entry) => `${entry.path}: ${entry.message}`).join("; ")}`;
    param = v0417.jsonPath(mapped.errors[0]!.path);
  }
  if (mapped instanceof IdempotencyRefusal && mapped.reason === "in_flight") res.set("Retry-After", "1");
  if (mapped.code === "checkout_not_modifiable") status = 409;
  if (status >= 500 && mapped.code === "internal") runtime.log.error("acp request failed", { error: String(error) });
  const retryAfter = (mapped as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) res.set("Retry-After", String(retryAfter));
  if (status === 401) res.set("WWW-Authenticate", 'Bearer realm="acp"');
  return { status, body: v0417.error(status, mapped.code, message, param) };
}

function send(res: Response, answer: Answer): void {
  res.status(answer.status).type("json").send(JSON.stringify(answer.body));
}
