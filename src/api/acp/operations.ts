// What both ACP bindings (REST, MCP) share: admission of the agent platform (key, scope, API-Version, signature), the
// checkout operations over the checkout.* tools through the executor, idempotent runs through the shared store, and
// failures as the flat error with the HTTP status of their kind. A binding only reads its transport and writes answers.
import type { z } from "zod";
import { Invalid, toToolError, ToolError } from "../../core/errors.ts";
import type { Config } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import type { Executor } from "../../tools/executor.ts";
import cancelCheckout from "../../tools/checkout/cancel.ts";
import completeCheckout from "../../tools/checkout/complete.ts";
import createCheckout from "../../tools/checkout/create.ts";
import getCheckout from "../../tools/checkout/get.ts";
import updateCheckout from "../../tools/checkout/update.ts";
import type { Caller } from "../../tools/context.ts";
import type { ObjectSchema, ToolDefinition } from "../../tools/tool.ts";
import { fieldErrors } from "../../tools/executor.ts";
import signingSecret from "../../tools/keys/acp_signing_secret.ts";
import agentAccess from "../../tools/settings/agent_access.ts";
import { AgentCheckoutOff } from "../../tools/settings/commerce.ts";
import { hasScope } from "../../tools/scopes.ts";
import type { AcpFeed } from "./feed.ts";
import { IdempotencyRefusal, IdempotencyStore, type IdempotencyRules } from "../../core/idempotency.ts";
import { checkSignature, type SignatureProblem, type SignedRequest } from "./signature.ts";
import * as v0417 from "./v2026-04-17.ts";

export const ACP_BODY_LIMIT = "256kb";
export const SUPPORTED_VERSIONS = [v0417.VERSION];

/** ACP's idempotency rules (RFC agentic_checkout §6): 422 for another body, 409 while the first still runs. */
export const ACP_RULES: IdempotencyRules = {
  conflict: { status: 422, code: "idempotency_conflict" },
  inFlight: { status: 409, code: "idempotency_in_flight" },
  canonical: true,
};

export interface Answer {
  status: number;
  body: unknown;
}

/** A protocol error: this HTTP status and the flat error body. */
export class AcpError extends Error {
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

/** The ACP door reading what its admission needs through internal tools; never a caller's own call. */
const ACP_DOOR: Caller = { kind: "system", actor: "system:acp", scopes: new Set(["keys:read", "settings:read"]) };

/** One admitted request: who calls, through which door, and the shop's links. */
export interface AcpCall {
  caller: Caller;
  requestId: string;
  executor: Executor;
  shop: v0417.Shop;
}

/** What the ACP door needs of the shop, built by the composition root (src/compose.ts): never the whole runtime. */
export interface AcpDeps {
  executor: Executor;
  config: Config;
  log: Logger;
  now: () => Date;
  /** Idempotency-Key records under ACP's rules (ACP_RULES). */
  idempotency: IdempotencyStore;
  /** The signed payment-page link of an order (the session's permalink). */
  paymentLink: (orderId: string) => string;
  /** The buyer's signed hand-off page of a session (its continue_url). */
  handoffLink: (sessionId: string, expiresAt: string) => string;
  /** The product feed's files, rebuilt when the catalogue moves. */
  feed: AcpFeed;
}

const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  signature_missing: "This key signs its requests: Signature and Timestamp headers are required.",
  timestamp_invalid: "Timestamp must be an RFC 3339 date-time.",
  timestamp_stale: "Timestamp is too far from the server's clock (more than 5 minutes).",
  signature_invalid: "Signature does not match the request (it signs the Timestamp, method, path and canonical JSON body).",
};

/** What a binding needs for every request: the door's deps, the idempotency store and the shop's links. */
export class AcpContext {
  readonly deps: AcpDeps;
  readonly store: IdempotencyStore;
  readonly shop: v0417.Shop;

  constructor(deps: AcpDeps) {
    this.deps = deps;
    this.store = deps.idempotency;
    this.shop = { baseUrl: deps.config.publicBaseUrl, permalink: deps.paymentLink, continueUrl: deps.handoffLink };
  }

  /**
   * The agent platform's checks, in the order both bindings apply them: a Bearer key (401), the checkout:agent scope
   * (403), a supported API-Version (400), when the key has a signing secret, Signature + Timestamp over the request's
   * method, path and body (401), and the shop's agent checkout not being off (403 agent_checkout_off).
   */
  async admit(caller: Caller, headers: { version?: string; signature?: string; timestamp?: string }, request: SignedRequest): Promise<Caller & { keyId: string }> {
    if (caller.kind !== "key" || !caller.keyId) throw new AcpError(401, "unauthorized", "Authorization: Bearer <API key> is required.");
    if (!hasScope(caller.scopes, "checkout:agent")) throw new AcpError(403, "forbidden", "This API key lacks the checkout:agent scope.");
    if (headers.version === undefined) throw new AcpError(400, "missing_api_version", "The API-Version header is required.", undefined, { supported_versions: SUPPORTED_VERSIONS });
    if (!SUPPORTED_VERSIONS.includes(headers.version)) {
      throw new AcpError(400, "unsupported_api_version", `API-Version ${headers.version.slice(0, 20)} is not supported.`, undefined, { supported_versions: SUPPORTED_VERSIONS });
    }
    const { secret } = await this.read(signingSecret, { keyId: caller.keyId });
    if (secret) {
      const problem = checkSignature(secret, headers.signature, headers.timestamp, request, this.deps.now());
      if (problem) throw new AcpError(401, problem, SIGNATURE_MESSAGES[problem]);
    }
    // Before any idempotency claim, so a refusal is not what a key replays once the shop sells again.
    if ((await this.read(agentAccess, {})).agentAccess === "off") throw new AgentCheckoutOff();
    return caller as Caller & { keyId: string };
  }

  /** One of the door's own reads (a key's signing secret, the shop's agent access), as the door itself. */
  private read<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>> {
    return this.deps.executor.call(tool, input, { caller: ACP_DOOR, door: "acp" });
  }

  /**
   * Runs a mutating operation once per Idempotency-Key (scoped to the key and `scope`): a replay answers the stored
   * status and bytes; request errors are stored too, server errors release the key.
   */
  async idempotent(call: AcpCall & { caller: { keyId?: string } }, key: string, scope: string, body: unknown, run: () => Promise<Answer>): Promise<{ status: number; text: string; replayed: boolean; headers: Record<string, string> }> {
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new AcpError(400, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
    const claim = await this.store.claim({ caller: `acp:key:${call.caller.keyId}:${scope}`, key, method: "POST", path: scope, body: body ?? null });
    if (claim.kind === "replay") return { status: claim.response.status, text: claim.response.body, replayed: true, headers: {} };
    let result: Answer;
    try {
      result = await run();
    } catch (error) {
      const failure = failureOf(error, this.deps.log);
      if (failure.status >= 500) await this.store.release(claim.recordId);
      else await this.store.finish(claim.recordId, { status: failure.status, headers: { "content-type": "application/json" }, body: JSON.stringify(failure.body) });
      return { status: failure.status, text: JSON.stringify(failure.body), replayed: false, headers: failure.headers };
    }
    const text = JSON.stringify(result.body);
    await this.store.finish(claim.recordId, { status: result.status, headers: { "content-type": "application/json" }, body: text });
    return { status: result.status, text, replayed: false, headers: {} };
  }
}

/** The five checkout operations, each from a request body the version's reading judges. */
export const operations = {
  async create(call: AcpCall, raw: unknown): Promise<Answer> {
    const body = parse(v0417.createRequest, raw);
    const currency = body.currency.toUpperCase();
    const input = { ...v0417.toolInput(body), protocol: "acp" as const, protocolVersion: v0417.VERSION };
    try {
      const view = await invoke(call, createCheckout, input);
      const answer = v0417.checkout(view, call.shop);
      if (view.currency !== currency) {
        // Nothing is charged in another currency: the session is made (so the agent can read it) and says so.
        answer.messages.unshift({ type: "error", code: "unsupported", severity: "high", resolution: "requires_buyer_review", param: "$.currency", content_type: "plain", content: `This shop sells in ${view.currency}, not ${currency}.` });
      }
      return { status: 201, body: answer };
    } catch (error) {
      throw itemError(error);
    }
  },
  async get(call: AcpCall, id: string): Promise<Answer> {
    return { status: 200, body: v0417.checkout(await invoke(call, getCheckout, { id: sessionId(id) }), call.shop) };
  },
  async update(call: AcpCall, rawId: string, raw: unknown): Promise<Answer> {
    const input = v0417.toolInput(parse(v0417.updateRequest, raw));
    const id = sessionId(rawId);
    try {
      return { status: 200, body: v0417.checkout(await invoke(call, updateCheckout, { id, ...input }), call.shop) };
    } catch (error) {
      return withSession(call, id, itemError(error));
    }
  },
  async complete(call: AcpCall, rawId: string, raw: unknown): Promise<Answer> {
    const body = parse(v0417.completeRequest, raw);
    const id = sessionId(rawId);
    const payment = v0417.paymentInput(body);
    try {
      if (body.buyer) await invoke(call, updateCheckout, { id, ...v0417.toolInput({ buyer: body.buyer }) });
      return { status: 200, body: v0417.checkout(await invoke(call, completeCheckout, { id, payment }), call.shop) };
    } catch (error) {
      return withSession(call, id, error);
    }
  },
  async cancel(call: AcpCall, rawId: string, raw: unknown): Promise<Answer> {
    const trace = v0417.traceInput(parse(v0417.cancelRequest, raw ?? {}));
    const id = sessionId(rawId);
    try {
      return { status: 200, body: v0417.checkout(await invoke(call, cancelCheckout, { id, ...(trace ? { intentTrace: trace } : {}) }), call.shop) };
    } catch (error) {
      if (error instanceof ToolError && error.code === "checkout_not_modifiable") {
        throw new AcpError(405, "not_cancelable", "The checkout session is already completed or canceled.");
      }
      throw error;
    }
  },
};

/** A tool call of the ACP door (audited as door "acp"), by the tool's definition, as the call's caller. */
function invoke<I extends ObjectSchema, O extends z.ZodType>(call: AcpCall, tool: ToolDefinition<I, O>, input: z.input<I>): Promise<z.output<O>> {
  return call.executor.call(tool, input, { caller: call.caller, door: "acp", requestId: call.requestId });
}

/** The session id a request names; one that cannot be a session's is simply not found. */
function sessionId(id: string): string {
  if (!/^chk_[A-Za-z0-9]{10,64}$/.test(id)) throw new AcpError(404, "not_found", "No such checkout session.");
  return id;
}

/** The body under our reading of the version: 400 naming the first offending field otherwise. */
export function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
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
  const body = v0417.checkout(await invoke(call, getCheckout, { id }), call.shop);
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

/** A failure as the binding answers it: HTTP status, flat error body, and the headers that go with it. */
export interface Failure extends Answer {
  body: v0417.ErrorBody & Record<string, unknown>;
  headers: Record<string, string>;
}

/** Any failure as the flat error with the HTTP status of its kind; never a stack trace. */
export function failureOf(error: unknown, log: Logger): Failure {
  const headers: Record<string, string> = {};
  if (error instanceof AcpError) {
    if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="acp"';
    if (error.status === 405) headers.Allow = "GET";
    return { status: error.status, body: { ...v0417.error(error.status, error.code, error.message, error.param), ...error.extra }, headers };
  }
  const mapped = toToolError(error);
  let { status } = mapped;
  let message = mapped.message;
  let param: string | undefined;
  if (mapped instanceof Invalid && mapped.errors?.length) {
    message += ` ${mapped.errors.slice(0, 5).map((entry) => `${entry.path}: ${entry.message}`).join("; ")}`;
    param = v0417.jsonPath(mapped.errors[0]!.path);
  }
  if (mapped instanceof IdempotencyRefusal && mapped.reason === "in_flight") headers["Retry-After"] = "1";
  if (mapped.code === "checkout_not_modifiable") status = 409;
  if (status >= 500 && mapped.code === "internal") log.error("acp request failed", { error: String(error) });
  const retryAfter = (mapped as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) headers["Retry-After"] = String(retryAfter);
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="acp"';
  return { status, body: v0417.error(status, mapped.code, message, param), headers };
}
