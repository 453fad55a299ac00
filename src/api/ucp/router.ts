// The UCP REST door (version 2026-04-08): /ucp/checkout-sessions…, /ucp/orders/{id} and /.well-known/ucp. It reads the
// UCP-Agent header, negotiates the version, applies Idempotency-Key, runs the checkout.* tools through the executor and
// answers in the version's shapes; every answer carries the `ucp` envelope and echoes Request-Id.
import crypto from "node:crypto";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { z } from "zod";
import { Invalid, RateLimited, toToolError, ToolError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime.ts";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import type { OrderView } from "../../tools/checkout/get_order.ts";
import type { Caller } from "../../tools/context.ts";
import type { Executor } from "../../tools/executor.ts";
import { fieldErrors } from "../../tools/executor.ts";
import { admit, httpError, type Gate } from "../../http/requests.ts";
import { IdempotencyStore, validKey } from "../../http/idempotency.ts";
import { readUcpAgent, StructuredFieldError, type UcpAgent } from "./agent-header.ts";
import { discoveryProfile } from "./discovery.ts";
import { ProfileError, ProfileFetcher, type AgentProfile } from "./profiles.ts";
import * as v0111 from "./v2026-01-11.ts";
import { mountSimulation } from "./testing.ts";
import * as v0408 from "./v2026-04-08.ts";

export const UCP_BODY_LIMIT = "256kb";
type Severity = "recoverable" | "requires_buyer_input" | "requires_buyer_review" | "unrecoverable";
type PaymentInput = { handlerId: string; instrumentType?: string; token?: string; cardNumber?: string; brand?: string; lastDigits?: string };

/** One protocol version: how it reads requests into tool inputs and writes tool results and errors. */
interface Adapter {
  version: string;
  createInput(body: unknown): Record<string, unknown>;
  updateInput(body: unknown): Record<string, unknown>;
  completePayment(body: unknown): PaymentInput;
  checkout(view: SessionView, shop: v0408.Shop): { messages: unknown[] };
  order(view: OrderView, shop: v0408.Shop): unknown;
  error(code: string, content: string, severity?: Severity): { messages: unknown[] };
  /** A domain refusal as a protocol error (this HTTP status) instead of a business outcome (200); null keeps it an outcome. */
  refusalStatus(code: string): number | null;
  /** A created or updated session the version answers as an error instead (2026-01-11: a line out of stock), else null. */
  sessionRefusal(view: SessionView): { status: number; code: string; content: string } | null;
}

const ADAPTERS: Record<string, Adapter> = {
  [v0408.VERSION]: {
    version: v0408.VERSION,
    createInput: (body) => v0408.toolInput(parse(v0408.createRequest, body, v0408.VERSION)),
    updateInput: (body) => v0408.toolInput(parse(v0408.updateRequest, body, v0408.VERSION)),
    completePayment: (body) => v0408.paymentInput(parse(v0408.completeRequest, body, v0408.VERSION)),
    checkout: v0408.checkout,
    order: v0408.order,
    error: v0408.error,
    refusalStatus: () => null,
    sessionRefusal: () => null,
  },
  [v0111.VERSION]: {
    version: v0111.VERSION,
    createInput: (body) => v0111.toolInput(parse(v0111.createRequest, body, v0111.VERSION)),
    updateInput: (body) => v0111.toolInput(parse(v0111.updateRequest, body, v0111.VERSION)),
    completePayment: (body) => {
      const payment = v0111.paymentInput(parse(v0111.completeRequest, body, v0111.VERSION));
      if (!payment) throw new UcpError(400, "invalid_request", "Completing needs payment_data (or payment.instruments) naming a handler_id.");
      return payment;
    },
    checkout: v0111.checkout,
    order: v0111.order,
    error: v0111.error,
    refusalStatus: v0111.refusalStatus,
    sessionRefusal: v0111.sessionRefusal,
  },
};
const SUPPORTED_VERSIONS = Object.keys(ADAPTERS).sort().reverse();
/** The version an agent gets when it names none: the latest. */
const DEFAULT = ADAPTERS[v0408.VERSION]!;

interface Answer {
  status: number;
  body: unknown;
}

/** A protocol error: this HTTP status and the version's error body. */
class UcpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, content: string) {
    super(content);
    this.status = status;
    this.code = code;
  }
}

export function ucpRouter(runtime: Runtime, gate: Gate): Router {
  const router = express.Router({ caseSensitive: true });
  const { executor, config } = runtime;
  const store = new IdempotencyStore(runtime.database.prisma, runtime.now);
  const profiles = new ProfileFetcher(config.ucpAllowLocalProfiles);
  const shop: v0408.Shop = { baseUrl: config.publicBaseUrl };
  const json = express.json({ limit: UCP_BODY_LIMIT, strict: false, type: () => true });

  router.get("/.well-known/ucp", (req, res) => {
    setRequestId(req, res);
    res.set("Cache-Control", "public, max-age=300");
    res.type("json").send(JSON.stringify(discoveryProfile(config)));
  });
  // What older clients given <base>/ucp as their server URL read: the 2026-01-11 profile.
  router.get("/ucp/.well-known/ucp", (req, res) => {
    setRequestId(req, res);
    res.set("Cache-Control", "public, max-age=300");
    res.type("json").send(JSON.stringify(v0111.discoveryProfile(config)));
  });

  const route = (mutating: boolean, run: (call: UcpCall) => Promise<Answer>) => async (req: Request, res: Response) => {
    const requestId = setRequestId(req, res);
    let adapter = DEFAULT;
    try {
      const agent = readAgent(req);
      const admitted = await admit(gate, req, res);
      const profile = agent?.profile ? await fetchProfile(profiles, agent.profile) : null;
      // An agent without a key is also budgeted as itself, so one agent cannot spread over many addresses.
      if (profile && admitted.kind !== "key") {
        const budget = await runtime.limiter.check(`agent:${profile.url}`, false);
        if (!budget.allowed) throw new RateLimited(budget.resetSeconds, "Rate limit of this agent exceeded");
      }
      pruneNow(store, runtime.now());
      adapter = negotiate(agent?.version ?? profile?.version ?? null);
      const caller: Caller = profile ? { ...admitted, agent: profile.name, agentProfile: profile.url } : admitted;
      const call: UcpCall = { req, caller, requestId, executor, shop, adapter };
      const key = mutating ? header(req, "idempotency-key") : undefined;
      if (key === undefined) return send(res, await run(call));
      if (!validKey(key)) throw new UcpError(400, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
      const claim = await store.claim({ caller: idempotencyCaller(caller), key, method: req.method, path: req.path, body: req.body });
      if (claim.kind === "replay") {
        res.set("Idempotent-Replayed", "true");
        return res.status(claim.response.status).type("json").send(claim.response.body);
      }
      let result: Answer;
      try {
        result = await run(call);
      } catch (error) {
        await store.release(claim.recordId);
        throw error;
      }
      const body = JSON.stringify(result.body);
      await store.finish(claim.recordId, { status: result.status, headers: { "content-type": "application/json" }, body });
      res.status(result.status).type("json").send(body);
    } catch (error) {
      sendError(res, error, runtime, adapter);
    }
  };

  router.post("/ucp/checkout-sessions", json, route(true, async (call) => {
    const { adapter } = call;
    const input = { ...adapter.createInput(call.req.body), protocol: "ucp", protocolVersion: adapter.version };
    try {
      const view = await invoke<SessionView>(call, "checkout.create", input);
      const refusal = adapter.sessionRefusal(view);
      if (refusal) return { status: refusal.status, body: adapter.error(refusal.code, refusal.content, "recoverable") };
      return { status: 201, body: adapter.checkout(view, call.shop) };
    } catch (error) {
      const refused = businessRefusal(error);
      if (!refused) throw error;
      // No session could be made (an item unknown or not for sale): a business outcome without a resource.
      return { status: adapter.refusalStatus(refused.code) ?? 200, body: adapter.error(refused.code, refused.message, "unrecoverable") };
    }
  }));

  router.get("/ucp/checkout-sessions/:id", route(false, async (call) => ({
    status: 200,
    body: call.adapter.checkout(await invoke<SessionView>(call, "checkout.get", { id: sessionId(call) }), call.shop),
  })));

  router.put("/ucp/checkout-sessions/:id", json, route(true, async (call) => {
    const input = call.adapter.updateInput(call.req.body);
    const id = sessionId(call);
    try {
      const view = await invoke<SessionView>(call, "checkout.update", { id, ...input });
      const refusal = call.adapter.sessionRefusal(view);
      if (refusal) return { status: refusal.status, body: call.adapter.error(refusal.code, refusal.content, "recoverable") };
      return { status: 200, body: call.adapter.checkout(view, call.shop) };
    } catch (error) {
      return withSession(call, id, error);
    }
  }));

  router.post("/ucp/checkout-sessions/:id/complete", json, route(true, async (call) => {
    const payment = call.adapter.completePayment(call.req.body);
    const id = sessionId(call);
    try {
      return { status: 200, body: call.adapter.checkout(await invoke<SessionView>(call, "checkout.complete", { id, payment }), call.shop) };
    } catch (error) {
      return withSession(call, id, error);
    }
  }));

  router.post("/ucp/checkout-sessions/:id/cancel", json, route(true, async (call) => {
    const id = sessionId(call);
    try {
      return { status: 200, body: call.adapter.checkout(await invoke<SessionView>(call, "checkout.cancel", { id }), call.shop) };
    } catch (error) {
      return withSession(call, id, error);
    }
  }));

  router.get("/ucp/orders/:id", route(false, async (call) => ({
    status: 200,
    body: call.adapter.order(await invoke<OrderView>(call, "checkout.get_order", { orderId: String(call.req.params.id) }), call.shop),
  })));

  mountSimulation(router, config, executor, (res, status, code, content) => {
    res.status(status).type("json").send(JSON.stringify(v0111.error(code, content)));
  });

  router.use("/ucp", (req: Request, res: Response) => {
    setRequestId(req, res);
    sendError(res, new UcpError(404, "not_found", `No UCP endpoint ${req.method} ${req.path}.`), runtime);
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith("/ucp") && req.path !== "/.well-known/ucp") return next(error);
    setRequestId(req, res);
    sendError(res, httpError(error), runtime);
  });
  return router;
}

let prunedAt = 0;
/** Drops expired idempotency records at most once an hour, in the background of a request. */
function pruneNow(store: IdempotencyStore, now: Date): void {
  if (now.getTime() - prunedAt < 3600_000) return;
  prunedAt = now.getTime();
  void store.prune().catch(() => undefined);
}

interface UcpCall {
  req: Request;
  caller: Caller;
  requestId: string;
  executor: Executor;
  shop: v0408.Shop;
  adapter: Adapter;
}

function invoke<T>(call: UcpCall, name: string, input: unknown): Promise<T> {
  return call.executor.invoke({ name, input, caller: call.caller, door: "rest", requestId: call.requestId }) as Promise<T>;
}

function sessionId(call: UcpCall): string {
  return String(call.req.params.id);
}

/** The body under this version's reading; 400 naming each offending field otherwise. */
function parse<T extends z.ZodType>(schema: T, body: unknown, version: string): z.output<T> {
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new UcpError(400, "invalid_request", "The request body must be a JSON object.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error).map((entry) => `$.${entry.path}: ${entry.message}`);
    throw new UcpError(400, "invalid_request", `The request does not match the UCP ${version} schema: ${problems.slice(0, 5).join("; ")}`);
  }
  return parsed.data;
}

const OUTCOME_CODES: Record<string, string> = {
  insufficient_stock: "out_of_stock",
  payment_declined: "payment_failed",
  payment_refused: "payment_refused",
};

/** A domain refusal (422) that the version reports as a business outcome, not a protocol error. */
function businessRefusal(error: unknown): { code: string; message: string } | null {
  if (!(error instanceof ToolError) || error.status !== 422 || error.code === "checkout_not_modifiable") return null;
  return { code: OUTCOME_CODES[error.code] ?? error.code, message: error.message };
}

/** A refused change to an existing session: 200 with the session as it stands and the refusal as an error message. */
async function withSession(call: UcpCall, id: string, error: unknown): Promise<Answer> {
  const refused = businessRefusal(error);
  if (!refused) throw error;
  const status = call.adapter.refusalStatus(refused.code);
  if (status !== null) return { status, body: call.adapter.error(refused.code, refused.message, "recoverable") };
  const view = await invoke<SessionView>(call, "checkout.get", { id });
  const body = call.adapter.checkout(view, call.shop);
  const severity = refused.code === "payment_refused" ? "unrecoverable" : "recoverable";
  body.messages = [...call.adapter.error(refused.code, refused.message, severity).messages, ...body.messages];
  return { status: 200, body };
}

/** Reads UCP-Agent (400 invalid_profile_url when it is not a structured-field dictionary with an http(s) profile). */
function readAgent(req: Request): UcpAgent | null {
  try {
    return readUcpAgent(header(req, "ucp-agent"));
  } catch (error) {
    if (error instanceof StructuredFieldError) throw new UcpError(400, "invalid_profile_url", `The UCP-Agent header is not a valid structured field with a profile URL (${error.message}).`);
    throw error;
  }
}

async function fetchProfile(profiles: ProfileFetcher, url: string): Promise<AgentProfile> {
  try {
    return await profiles.get(url);
  } catch (error) {
    if (error instanceof ProfileError) throw new UcpError(error.status, error.code, error.message);
    throw error;
  }
}

/** The adapter of the agent's version (UCP-Agent's version, else its profile's; the latest when neither says): 422 version_unsupported. */
function negotiate(version: string | null): Adapter {
  if (version === null) return DEFAULT;
  const adapter = ADAPTERS[version];
  if (!adapter) throw new UcpError(422, "version_unsupported", `Protocol version ${version.slice(0, 20)} is not supported. This business supports ${SUPPORTED_VERSIONS.join(", ")}.`);
  return adapter;
}

function idempotencyCaller(caller: Caller): string {
  if (caller.kind === "key") return `key:${caller.keyId}`;
  if (caller.session?.persistent) return `session:${caller.session.id}`;
  if (caller.agentProfile) return `agent:${caller.agentProfile}`;
  return `addr:${caller.address ?? "unknown"}`;
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function setRequestId(req: Request, res: Response): string {
  const given = header(req, "request-id") ?? header(req, "x-request-id");
  const id = given !== undefined && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
  res.set("Request-Id", id);
  return id;
}

function send(res: Response, answer: Answer): void {
  res.status(answer.status).type("json").send(JSON.stringify(answer.body));
}

const SEVERITY_BY_STATUS: Record<number, "recoverable" | "unrecoverable"> = { 400: "recoverable", 409: "recoverable", 429: "recoverable" };

/** Any failure as the version's error response, with the HTTP status of its kind; never a stack trace. */
function sendError(res: Response, error: unknown, runtime: Runtime, adapter: Adapter = DEFAULT): void {
  let status: number;
  let code: string;
  let content: string;
  if (error instanceof UcpError) {
    ({ status, code } = error);
    content = error.message;
  } else {
    const mapped = toToolError(error);
    status = mapped.status;
    code = mapped.code;
    content = mapped.message;
    if (mapped instanceof Invalid && mapped.errors?.length) content += ` ${mapped.errors.slice(0, 5).map((entry) => `${entry.path}: ${entry.message}`).join("; ")}`;
    if (code === "checkout_not_modifiable") status = 409;
    if (status >= 500 && code === "internal") runtime.log.error("ucp request failed", { error: String(error) });
    const retryAfter = (mapped as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter !== undefined) res.set("Retry-After", String(retryAfter));
    if (status === 401) res.set("WWW-Authenticate", 'Bearer realm="ucp"');
  }
  res.status(status).type("json").send(JSON.stringify(adapter.error(code, content, SEVERITY_BY_STATUS[status] ?? "unrecoverable")));
}
