// What every UCP binding (REST, MCP) shares: the version adapters, agent negotiation (profile, per-agent budget, version),
// the checkout operations over the checkout.* tools run through the executor, idempotent runs, and errors as the
// version's error body with the HTTP status of their kind. A binding only reads its transport and writes its answers.
import type { z } from "zod";
import { Invalid, RateLimited, toToolError, ToolError } from "../../core/errors.ts";
import type { Config } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import type { SigningKeys } from "../../tools/keys/signing-keys.ts";
import type { SessionView } from "../../tools/checkout/schemas.ts";
import type { Sign } from "../../tools/checkout/handoff.ts";
import cancelCheckout from "../../tools/checkout/cancel.ts";
import completeCheckout from "../../tools/checkout/complete.ts";
import createCheckout from "../../tools/checkout/create.ts";
import getCheckout from "../../tools/checkout/get.ts";
import getOrder, { type OrderView } from "../../tools/checkout/get_order.ts";
import placedOrder from "../../tools/checkout/placed_order.ts";
import updateCheckout from "../../tools/checkout/update.ts";
import recordEvents from "../../tools/orders/record_events.ts";
import type { ObjectSchema, ToolDefinition } from "../../tools/tool.ts";
import { PaymentActionRequired } from "../../tools/checkout/payment.ts";
import type { Caller } from "../../tools/context.ts";
import type { Executor } from "../../tools/executor.ts";
import { fieldErrors } from "../../tools/executor.ts";
import { DEFAULT_RULES, type IdempotencyRules, type IdempotencyStore, type IdempotentRequest } from "../../core/idempotency.ts";
import type { UcpAgent } from "./agent-header.ts";
import { ProfileError, ProfileFetcher, type AgentProfile } from "./agent-profiles.ts";
import agentAccess from "../../tools/settings/agent_access.ts";
import { AgentCheckoutOff, type AgentAccess } from "../../tools/settings/commerce.ts";
import { authorize, checkMandate, type Ap2Context } from "./ap2.ts";
import { AP2, CHECKOUT, incompatible, intersection, narrow } from "./capabilities.ts";
import { CART } from "./v2026-04-08-cart.ts";
import { UcpError } from "./errors.ts";
import { isSigned, verifyRequest, type SignedRequest } from "./request-signatures.ts";
import * as v0111 from "./v2026-01-11.ts";
import * as v0408 from "./v2026-04-08.ts";
import * as v0825 from "./v2026-08-25.ts";
import getPolicies from "../../tools/settings/get_policies.ts";
import getAgreement, { type Agreement } from "../../tools/checkout/agreement.ts";

export const UCP_BODY_LIMIT = "256kb";

/** UCP's idempotency rules are the store's default ones: 409 for both refusals, bodies compared as parsed. */
export const UCP_RULES: IdempotencyRules = DEFAULT_RULES;
/** The capabilities that sell (a cart is a checkout session too): refused while agent checkout is off. */
const SELLING = new Set([CHECKOUT, CART]);
type Severity = "recoverable" | "requires_buyer_input" | "requires_buyer_review" | "unrecoverable";
type PaymentInput = { handlerId: string; instrumentType?: string; token?: string; cardNumber?: string; brand?: string; lastDigits?: string };

/** One protocol version: how it reads requests into tool inputs and writes tool results and errors. */
export interface Adapter {
  version: string;
  createInput(body: unknown): v0408.SessionFields;
  updateInput(body: unknown): v0408.SessionFields;
  completePayment(body: unknown): PaymentInput;
  checkout(view: SessionView, shop: v0408.Shop, agreed?: Agreement | null): { messages: unknown[] };
  order(view: OrderView, shop: v0408.Shop, agreed?: Agreement | null): unknown;
  /** orders.record_events' input from an order update (PUT /ucp/orders/{id}); 422 when it does not read. */
  orderUpdateInput(body: unknown): ReturnType<typeof v0408.orderUpdateInput>;
  error(code: string, content: string, severity?: Severity): { messages: unknown[] };
  /** A domain refusal as a protocol error (this HTTP status) instead of a business outcome (200); null keeps it an outcome. */
  refusalStatus(code: string): number | null;
  /** A created or updated session the version answers as an error instead (2026-01-11: a line out of stock), else null. */
  sessionRefusal(view: SessionView): { status: number; code: string; content: string } | null;
  /**
   * Its answers carry the shop's policies (2026-08-25): the door reads them before the operation runs, and what the buyer
   * agreed to (consent as given, the order's policy snapshot: checkout.agreement) before it answers.
   */
  policies?: boolean;
  /** A completion that needs 3-D Secure, as the version shows it (default: requires_escalation with continue_url). */
  escalate?(body: Record<string, unknown>, url: string, request: unknown): Record<string, unknown>;
}

const ADAPTERS: Record<string, Adapter> = {
  [v0825.VERSION]: {
    version: v0825.VERSION,
    createInput: (body) => v0825.toolInput(parse(v0825.createRequest, body, v0825.VERSION)),
    updateInput: (body) => v0825.toolInput(parse(v0825.updateRequest, body, v0825.VERSION)),
    completePayment: (body) => v0825.paymentInput(parse(v0825.completeRequest, body, v0825.VERSION)),
    checkout: v0825.checkout,
    order: v0825.order,
    orderUpdateInput,
    error: v0825.error,
    refusalStatus: () => null,
    sessionRefusal: () => null,
    policies: true,
    escalate: (body, url, request) => v0825.escalate(body, url, v0825.instrumentId(request)),
  },
  [v0408.VERSION]: {
    version: v0408.VERSION,
    createInput: (body) => read0408(parse(v0408.createRequest, body, v0408.VERSION)),
    updateInput: (body) => read0408(parse(v0408.updateRequest, body, v0408.VERSION)),
    completePayment: (body) => v0408.paymentInput(parse(v0408.completeRequest, body, v0408.VERSION)),
    checkout: v0408.checkout,
    order: v0408.order,
    orderUpdateInput,
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
    orderUpdateInput,
    error: v0111.error,
    refusalStatus: v0111.refusalStatus,
    sessionRefusal: v0111.sessionRefusal,
  },
};
/** A 2026-04-08 create or update: its session fields, parcel shops on offer (a pickup method's choice wins). */
function read0408(body: v0408.CreateRequest): v0408.SessionFields {
  const input = v0408.toolInput(body);
  const pickup = v0408.pickupInput(body);
  return { ...input, ...pickup, ...(pickup.fulfillmentOptionId === undefined && input.fulfillmentOptionId !== undefined ? { fulfillmentOptionId: input.fulfillmentOptionId } : {}) };
}

/** Both versions read an order update the same way (2026-01-11 defines it; 2026-04-08 orders carry the same lists). */
function orderUpdateInput(body: unknown): ReturnType<typeof v0408.orderUpdateInput> {
  return v0408.orderUpdateInput(parse(v0408.orderUpdateRequest, body, "order update", 422));
}

const SUPPORTED_VERSIONS = Object.keys(ADAPTERS).sort().reverse();
/** The version an agent gets when it names none: 2026-04-08 (what agents that name no version were built against). */
export const DEFAULT_ADAPTER = ADAPTERS[v0408.VERSION]!;

export interface Answer {
  status: number;
  body: unknown;
}

/** What the UCP door needs of the shop, built by the composition root (src/compose.ts): never the whole runtime. */
export interface UcpDeps {
  executor: Executor;
  config: Config;
  log: Logger;
  now: () => Date;
  /** Budgets keyless agents per profile. */
  limiter: RateLimiter;
  /** The shop's keys: the profiles publish them, AP2 and signed responses sign with them. */
  signingKeys: SigningKeys;
  /** Idempotency-Key records under UCP's rules. */
  idempotency: IdempotencyStore;
  /** Signs with the shop's secret: the buyer's hand-off links (continue_url) and order permalinks. */
  sign: Sign;
}

/** What a binding needs of the shop for every request: the executor, profiles, idempotency store, limiter. */
export class UcpContext {
  readonly deps: UcpDeps;
  readonly executor: Executor;
  readonly store: IdempotencyStore;
  readonly profiles: ProfileFetcher;
  readonly shop: v0408.Shop;
  private prunedAt = 0;

  constructor(deps: UcpDeps) {
    this.deps = deps;
    this.executor = deps.executor;
    this.store = deps.idempotency;
    this.profiles = new ProfileFetcher(deps.config.ucpAllowLocalProfiles, deps.config.webhooksAllowLocal);
    this.shop = { ...v0408.shopLinks(deps.config.publicBaseUrl, deps.sign), stripePublishableKey: deps.config.stripePublishableKey };
  }

  /**
   * The admitted caller as the agent it says it is, for an operation of `capability`: refused at once when it sells and
   * the shop's agent checkout is off; its profile fetched (a keyless agent is also budgeted as itself, so one agent
   * cannot spread over many addresses) and its version's adapter (UCP-Agent's version, else the profile's).
   */
  async negotiate(agent: UcpAgent | null, admitted: Caller, signed: SignedRequest, capability: string): Promise<{ caller: Caller; adapter: Adapter; active: ReadonlySet<string> | null; ap2: Ap2Context | null }> {
    const selling = SELLING.has(capability);
    const access = selling || admitted.kind !== "key" ? (await this.executor.call(agentAccess, {}, { caller: UCP_DOOR, door: "ucp" })).agentAccess : "open";
    if (selling && access === "off") throw new AgentCheckoutOff();
    const profile = agent?.profile ? await this.fetchProfile(agent.profile) : null;
    // A signature proves the caller holds the profile's key; a wrong one is refused even where none is required.
    const verified = isSigned(signed) && this.verify(signed, profile);
    if (admitted.kind !== "key") {
      checkAccess(access, verified);
      if (profile) {
        const budget = await this.deps.limiter.check(`agent:${profile.url}`, false);
        if (!budget.allowed) throw new RateLimited(budget.resetSeconds, "Rate limit of this agent exceeded");
      }
    }
    this.pruneNow();
    const adapter = adapterOf(agent?.version ?? profile?.version ?? null);
    const caller: Caller = profile
      ? { ...admitted, agent: profile.name, agentProfile: profile.url, ...(profile.webhookUrl ? { agentWebhookUrl: profile.webhookUrl } : {}) }
      : admitted;
    // 2026-04-08 and later narrow to the capabilities the agent declares; a profile that declares none (or no profile) gets all.
    const active = adapter.version !== v0111.VERSION && profile?.capabilities ? intersection(profile.capabilities, adapter.version) : null;
    return { caller, adapter, active, ap2: active?.has(AP2) && profile ? this.ap2Context(profile) : null };
  }

  /**
   * Runs `run` once per caller and key: a repeat of the same request replays the stored answer (`replayed`), another
   * request under the key or one while the first still runs is refused (409). 5xx answers release the key.
   */
  async idempotent(request: IdempotentRequest, run: () => Promise<Answer>): Promise<{ status: number; text: string; replayed: boolean }> {
    const claim = await this.store.claim(request);
    if (claim.kind === "replay") return { status: claim.response.status, text: claim.response.body, replayed: true };
    let answer: Answer;
    try {
      answer = await run();
    } catch (error) {
      await this.store.release(claim.recordId);
      throw error;
    }
    const text = JSON.stringify(answer.body);
    await this.store.finish(claim.recordId, { status: answer.status, headers: { "content-type": "application/json" }, body: text });
    return { status: answer.status, text, replayed: false };
  }

  /** AP2 negotiated: the shop signs checkouts and verifies the agent's mandates with the keys of its profile. */
  private ap2Context(profile: AgentProfile): Ap2Context {
    const base = this.deps.config.publicBaseUrl;
    return { shopKeys: this.deps.signingKeys, agentKeys: profile.signingKeys, audiences: [base, `${base}/.well-known/ucp`], now: this.deps.now };
  }

  private verify(signed: SignedRequest, profile: AgentProfile | null): true {
    if (!profile) throw new UcpError(401, "signature_invalid", "A signed request needs UCP-Agent naming the profile whose signing_keys hold its key.");
    verifyRequest(signed, profile.signingKeys, this.deps.now());
    return true;
  }

  private async fetchProfile(url: string): Promise<AgentProfile> {
    try {
      return await this.profiles.get(url);
    } catch (error) {
      if (error instanceof ProfileError) throw new UcpError(error.status, error.code, error.message);
      throw error;
    }
  }

  /** Drops expired idempotency records at most once an hour, in the background of a request. */
  private pruneNow(): void {
    const now = this.deps.now().getTime();
    if (now - this.prunedAt < 3600_000) return;
    this.prunedAt = now;
    void this.store.prune().catch(() => undefined);
  }
}

/** The shop's agent access (the commerce setting) for a keyless agent: it may be required to sign, or to bring a key. */
function checkAccess(access: AgentAccess, verified: boolean): void {
  if (access === "key") {
    throw new UcpError(401, "unauthorized", "This shop sells to agents with an API key only (scope checkout:agent): send it as Authorization: Bearer <key>.");
  }
  if (access === "signed" && !verified) {
    throw new UcpError(401, "signature_missing", "This shop needs agents without an API key to sign their requests (RFC 9421, with a key from their profile's signing_keys).");
  }
}

/** One negotiated request of a binding. */
export interface UcpCall {
  caller: Caller;
  requestId: string;
  executor: Executor;
  shop: v0825.Shop;
  adapter: Adapter;
  /** The capabilities negotiated with the agent (null: all of the shop's). */
  active: ReadonlySet<string> | null;
  /** Set when AP2 is negotiated (ap2.ts): checkouts are signed and completing needs the buyer's mandate. */
  ap2?: Ap2Context | null;
}

/** Runs an operation of `capability` as negotiated: refused as incompatible before it runs, its answer narrowed. */
export async function negotiatedRun(call: UcpCall, capability: string, run: () => Promise<Answer>): Promise<Answer> {
  // The operations read the call's shop: a version whose answers carry the shop's policies gets them first.
  if (call.adapter.policies && !call.shop.policies) call.shop = { ...call.shop, policies: await invoke(call, getPolicies, {}, POLICY_READER) };
  if (!call.active) return run();
  if (!call.active.has(capability)) return { status: 200, body: incompatible(capability, call.shop.baseUrl, call.adapter.version) };
  const answer = await run();
  const body = narrow(answer.body, call.active, capability);
  // AP2: every checkout (not an error response) carries the shop's merchant_authorization over what the agent sees.
  const isCheckout = capability === CHECKOUT && (body as { ucp?: { status?: unknown } }).ucp?.status === "success";
  return { ...answer, body: call.ap2 && isCheckout ? await authorize(call.ap2.shopKeys, body as Record<string, unknown>, call.adapter.version) : body };
}

/** The checkout operations of UCP, each over its checkout.* tool, answering in the call's version. */
export const operations = {
  async create(call: UcpCall, body: unknown): Promise<Answer> {
    const { adapter } = call;
    const input = { ...adapter.createInput(body), protocol: "ucp" as const, protocolVersion: adapter.version };
    try {
      return await sessionAnswer(call, 201, await invoke(call, createCheckout, input));
    } catch (error) {
      const refused = businessRefusal(error);
      if (!refused) throw error;
      // No session could be made (an item unknown or not for sale): a business outcome without a resource.
      return { status: adapter.refusalStatus(refused.code) ?? 200, body: adapter.error(refused.code, refused.message, "unrecoverable") };
    }
  },

  async get(call: UcpCall, id: string): Promise<Answer> {
    return { status: 200, body: await shown(call, await invoke(call, getCheckout, { id })) };
  },

  async update(call: UcpCall, id: string, body: unknown): Promise<Answer> {
    const input = call.adapter.updateInput(body);
    try {
      return await sessionAnswer(call, 200, await invoke(call, updateCheckout, { id, ...input }));
    } catch (error) {
      return withSession(call, id, error);
    }
  },

  async complete(call: UcpCall, id: string, body: unknown): Promise<Answer> {
    const payment = call.adapter.completePayment(body);
    if (!call.ap2) return changed(call, id, completeCheckout, { id, payment }, body);
    // AP2: the buyer's mandate must bind the session as it stands; the tool refuses if it changes before its lock.
    const view = await invoke(call, getCheckout, { id });
    try {
      await checkMandate(call.ap2, body, call.adapter.checkout(view, call.shop));
    } catch (error) {
      return withSession(call, id, error);
    }
    const total = view.totals.find((entry) => entry.type === "total")?.amount ?? 0;
    const expect = { total, lines: view.lines.map((line) => ({ itemId: line.itemId, quantity: line.quantity, unitPrice: line.unitPrice })) };
    return changed(call, id, completeCheckout, { id, payment, expect }, body);
  },

  cancel(call: UcpCall, id: string): Promise<Answer> {
    return changed(call, id, cancelCheckout, { id });
  },

  async order(call: UcpCall, id: string): Promise<Answer> {
    // The agent's own call first: it shows the order is the agent's before anything else is read.
    const view = await invoke(call, getOrder, { orderId: id });
    return { status: 200, body: call.adapter.order(view, call.shop, await agreed(call, { orderId: view.id })) };
  },

  /**
   * An order update from outside (fulfilment events, adjustments) through orders.record_events: in test mode a caller
   * without a key may (as the reference server allows), otherwise the key needs orders:write. Answers the order as
   * GET shows it; an order that no UCP checkout placed is 404 here.
   */
  async updateOrder(call: UcpCall, context: UcpContext, id: string, body: unknown): Promise<Answer> {
    const caller = context.deps.config.ucpTestMode && call.caller.kind !== "key" ? ORDER_UPDATER : call.caller;
    // Who may not write orders is refused (401/403) before the body is judged: a stranger learns nothing from a 422.
    call.executor.authorize(recordEvents.name, caller);
    const input = call.adapter.orderUpdateInput(body);
    const placed = await invoke(call, placedOrder, { orderId: id }, UCP_DOOR);
    // Who may not write orders learns nothing about which exist: the tool refuses them (401/403) before reading.
    if (!placed && caller.scopes.has("orders:write")) throw new UcpError(404, "not_found", `There is no order "${id}" from a UCP checkout.`);
    await invoke(call, recordEvents, { orderId: id, ...input }, caller);
    // Read again: the view shows the events just recorded (a caller that reached here had an order to record them on).
    const view = await invoke(call, placedOrder, { orderId: id }, UCP_DOOR);
    return { status: 200, body: call.adapter.order(view!, call.shop, await agreed(call, { orderId: id })) };
  },
};

/** The UCP door reading what negotiation and order updates need through internal tools; never an agent's own call. */
const UCP_DOOR: Caller = { kind: "system", actor: "system:ucp", scopes: new Set(["orders:read", "settings:read"]) };

/** The UCP door reading the shop's public policies for a version whose answers carry them. */
const POLICY_READER: Caller = { kind: "system", actor: "system:ucp", scopes: new Set(["catalog:read"]) };

/** Who records order updates in test mode when the caller has no key (UCP_TEST_MODE=1 only). */
const ORDER_UPDATER: Caller = { kind: "system", actor: "system:ucp-test-order-update", scopes: new Set(["orders:write"]) };

/** A created or updated session in the call's version, unless the version answers it as an error. */
async function sessionAnswer(call: UcpCall, status: number, view: SessionView): Promise<Answer> {
  const refusal = call.adapter.sessionRefusal(view);
  if (refusal) return { status: refusal.status, body: call.adapter.error(refusal.code, refusal.content, "recoverable") };
  return { status, body: await shown(call, view) };
}

/** What the buyer agreed to through a session or order the caller's own call has just shown it, for a version that answers it. */
async function agreed(call: UcpCall, which: { checkoutId: string } | { orderId: string }): Promise<Agreement | null> {
  return call.adapter.policies ? invoke(call, getAgreement, which, UCP_DOOR) : null;
}

/** A session the caller's own call returned, in the call's version (with the consent as given, where it answers it). */
async function shown(call: UcpCall, view: SessionView) {
  return call.adapter.checkout(view, call.shop, await agreed(call, { checkoutId: view.id }));
}

/** A change of a session (complete, cancel): the session as it stands after, or the refusal beside it. */
async function changed<I extends ObjectSchema>(call: UcpCall, id: string, tool: ToolDefinition<I, typeof getCheckout.output>, input: z.input<I>, request?: unknown): Promise<Answer> {
  try {
    return { status: 200, body: await shown(call, await invoke(call, tool, input)) };
  } catch (error) {
    return withSession(call, id, error, request);
  }
}

/** A tool call of the UCP door (audited as door "ucp"), by the tool's definition, as the call's caller unless given. */
export function invoke<I extends ObjectSchema, O extends z.ZodType>(call: UcpCall, tool: ToolDefinition<I, O>, input: z.input<I>, caller: Caller = call.caller): Promise<z.output<O>> {
  return call.executor.call(tool, input, { caller, door: "ucp", requestId: call.requestId });
}

/** The body under this version's reading; 400 naming each offending field otherwise. */
export function parse<T extends z.ZodType>(schema: T, body: unknown, version: string, status = 400): z.output<T> {
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new UcpError(status, "invalid_request", "The request body must be a JSON object.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error).map((entry) => `$.${entry.path}: ${entry.message}`);
    throw new UcpError(status, "invalid_request", `The request does not match the UCP ${version} schema: ${problems.slice(0, 5).join("; ")}`);
  }
  return parsed.data;
}

const OUTCOME_CODES: Record<string, string> = {
  insufficient_stock: "out_of_stock",
  payment_declined: "payment_failed",
  payment_refused: "payment_refused",
  payment_requires_action: "requires_3ds",
  // Only AP2 completions name the terms they expect (operations.complete).
  checkout_changed: "mandate_scope_mismatch",
};

/** A domain refusal (422) that the version reports as a business outcome, not a protocol error. */
function businessRefusal(error: unknown): { code: string; message: string } | null {
  if (!(error instanceof ToolError) || error.status !== 422 || error.code === "checkout_not_modifiable") return null;
  return { code: OUTCOME_CODES[error.code] ?? error.code, message: error.message };
}

/** A refused change to an existing session: 200 with the session as it stands and the refusal as an error message. */
async function withSession(call: UcpCall, id: string, error: unknown, request?: unknown): Promise<Answer> {
  const refused = businessRefusal(error);
  if (!refused) throw error;
  const status = call.adapter.refusalStatus(refused.code);
  if (status !== null) return { status, body: call.adapter.error(refused.code, refused.message, "recoverable") };
  const view = await invoke(call, getCheckout, { id });
  const body = await shown(call, view);
  // 3-D Secure: the buyer authenticates at the bank's page, then the agent completes again (UCP's SCA example).
  const escalated = error instanceof PaymentActionRequired;
  const severity = escalated ? "requires_buyer_input" : refused.code === "payment_refused" ? "unrecoverable" : "recoverable";
  body.messages = [...call.adapter.error(refused.code, refused.message, severity).messages, ...body.messages];
  if (!escalated) return { status: 200, body };
  const escalate = call.adapter.escalate ?? ((shown: Record<string, unknown>, url: string) => ({ ...shown, status: "requires_escalation", continue_url: url }));
  return { status: 200, body: escalate(body as unknown as Record<string, unknown>, error.continueUrl, request) };
}

/** The adapter of the agent's version (the latest when it names none): 422 version_unsupported. */
function adapterOf(version: string | null): Adapter {
  if (version === null) return DEFAULT_ADAPTER;
  const adapter = ADAPTERS[version];
  if (!adapter) throw new UcpError(422, "version_unsupported", `Protocol version ${version.slice(0, 20)} is not supported. This business supports ${SUPPORTED_VERSIONS.join(", ")}.`);
  return adapter;
}

/** Who owns an idempotency key: the API key, the storefront session, the agent profile, else the client address. */
export function idempotencyCaller(caller: Caller): string {
  if (caller.kind === "key") return `key:${caller.keyId}`;
  if (caller.session?.persistent) return `session:${caller.session.id}`;
  if (caller.agentProfile) return `agent:${caller.agentProfile}`;
  return `addr:${caller.address ?? "unknown"}`;
}

/** A failure as a binding reports it: its HTTP status, code and text, and Retry-After in seconds when it has one. */
export interface Failure {
  status: number;
  code: string;
  content: string;
  retryAfter?: number;
}

/** Any failure by its kind (UcpError, a tool's refusal, anything else as 500); never a stack trace. */
export function failureOf(error: unknown, log: Logger): Failure {
  if (error instanceof UcpError) return { status: error.status, code: error.code, content: error.message };
  const mapped = toToolError(error);
  let status = mapped.status;
  let content = mapped.message;
  if (mapped instanceof Invalid && mapped.errors?.length) content += ` ${mapped.errors.slice(0, 5).map((entry) => `${entry.path}: ${entry.message}`).join("; ")}`;
  if (mapped.code === "checkout_not_modifiable") status = 409;
  if (status >= 500 && mapped.code === "internal") log.error("ucp request failed", { error: String(error) });
  const retryAfter = (mapped as { retryAfterSeconds?: number }).retryAfterSeconds;
  return { status, code: mapped.code, content, ...(retryAfter !== undefined ? { retryAfter } : {}) };
}

const SEVERITY_BY_STATUS: Record<number, "recoverable" | "unrecoverable"> = { 400: "recoverable", 409: "recoverable", 429: "recoverable" };

/** A failure as the version's error response. */
export function errorBody(failure: Failure, adapter: Adapter = DEFAULT_ADAPTER): unknown {
  return adapter.error(failure.code, failure.content, SEVERITY_BY_STATUS[failure.status] ?? "unrecoverable");
}
