// The UCP MCP binding, POST /ucp/mcp: UCP's checkout, order, catalog and cart operations as MCP tools with the
// protocol's names and argument shapes (create_checkout, get_checkout, update_checkout, complete_checkout,
// cancel_checkout, get_order, search_catalog, lookup_catalog, get_product, create_cart, get_cart, update_cart,
// cancel_cart), served statelessly by the official SDK in both MCP eras. Each tool runs the same operation as the REST
// binding (operations.ts, catalog.ts, cart.ts): the version adapter's translation, the tools through the executor, the
// idempotency store.
import express, { type Request as HttpRequest, type Response as HttpResponse, type Router } from "express";
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { toToolError, ToolError } from "../../core/errors.ts";
import type { Caller } from "../../tools/context.ts";
import { isTooDeep, textBody } from "../../http/body.ts";
import { validKey } from "../../core/idempotency.ts";
import { httpError, requestId, type Gate } from "../../http/requests.ts";
import { admitLinked } from "./identity-linking.ts";
import { describeIssues, McpBinding, type BindingTool, type ToolCall } from "../mcp-binding.ts";
import { mcpGuard } from "../mcp-guard.ts";
import { relay, rpcMessage, sdkHeaders, sendRpcError } from "../mcp-http.ts";
import { readUcpAgent, StructuredFieldError, type UcpAgent } from "./agent-header.ts";
import { ap2CompleteRequest } from "./ap2.ts";
import { cartOperations } from "./cart.ts";
import { catalogOperations } from "./catalog.ts";
import { LOOKUP, lookupRequest, productRequest, SEARCH, searchRequest } from "./v2026-04-08-catalog.ts";
import { CART, cartRequest, conversionRequest } from "./v2026-04-08-cart.ts";
import * as v0408 from "./v2026-04-08.ts";
import * as v0111 from "./v2026-01-11.ts";
import * as v0825 from "./v2026-08-25.ts";
import * as cart0825 from "./v2026-08-25-cart.ts";
import * as catalog0825 from "./v2026-08-25-catalog.ts";
import { errorBody, failureOf, negotiatedRun, idempotencyCaller, operations, UCP_BODY_LIMIT, type Answer, type UcpCall, type UcpContext } from "./operations.ts";
import { CHECKOUT, ORDER } from "./capabilities.ts";
import { UcpError } from "./errors.ts";
import { keepRawBody, signedRequestOf, type SignedRequest } from "./request-signatures.ts";

const SERVER_INFO = { name: "shop-ucp", version: "1.0.0" };
const INSTRUCTIONS =
  "The Universal Commerce Protocol (UCP) shopping service of a Danish online shop, as MCP tools. Every call carries " +
  "meta[\"ucp-agent\"].profile (your UCP profile URL); complete_checkout and cancel_checkout also meta[\"idempotency-key\"]. " +
  "Amounts are integers in minor units (øre). Results are the UCP resource in structuredContent.";

/** JSON-RPC codes of UCP over MCP: discovery and negotiation failures, and every other protocol error. */
const DISCOVERY_ERROR = -32001;
const PROTOCOL_ERROR = -32000;
const INTERNAL_ERROR = -32603;
const NEGOTIATION_CODES = new Set(["invalid_profile_url", "profile_unreachable", "profile_malformed", "version_unsupported"]);
/** The SDK reads the URL of a request only for its own diagnostics. */
const ENDPOINT = "http://localhost/ucp/mcp";

// The arguments as UCP 2026-04-08 names them (its mcp.openrpc.json), declared once per tool: tools/list shows them, and
// a call is read with the same pieces. Each payload is the version's own reading (a 2026-01-11 agent's is judged by
// 2026-01-11's, as on REST); the agent may also name itself in 2026-01-11's `_meta.ucp` or the UCP-Agent header, and
// 2026-01-11 passes the idempotency key and complete_checkout's payment beside the id.
const agent = z
  .looseObject({ profile: z.string().max(2048).describe("Your UCP profile URL (http or https)."), version: z.string().max(20).optional() })
  .describe("The platform agent: its UCP profile URL (the UCP-Agent header of REST).");
const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 visible ASCII characters")
  .describe("Unique key for retry safety (the Idempotency-Key header of REST).");
const meta = z.looseObject({ "ucp-agent": agent.optional(), "idempotency-key": idempotencyKey.optional() });
const id = z.string().min(1).max(200).describe("The resource id.");
const payload = z.record(z.string(), z.unknown());
/** A call's arguments as read before the negotiated version judges the payload. */
const args = z.looseObject({
  meta: meta.optional(),
  id: id.optional(),
  checkout: payload.optional(),
  catalog: payload.optional(),
  cart: payload.optional(),
  payment: payload.optional(),
  idempotency_key: z.string().max(255).optional(),
});
type Args = z.infer<typeof args>;
type Param = "id" | "checkout" | "catalog" | "cart";

/** meta as a tool asks for it: the agent always, the key on the calls that change something once. */
const META = meta.required({ "ucp-agent": true }).describe("Request metadata.");
const KEYED_META = meta.required({ "ucp-agent": true, "idempotency-key": true }).describe("Request metadata.");

const CHECKOUT_PAYLOAD = "The checkout payload as UCP defines it (line_items, buyer, fulfillment, discounts, payment, …), without an id.";
const CART_PAYLOAD = "The cart as UCP defines it (line_items, buyer, context), without an id.";

interface UcpTool extends BindingTool {
  /** The capability it belongs to: the agent must have negotiated it (2026-04-08). */
  capability: string;
  /** What the tool needs besides meta, each in its 2026-04-08 reading. */
  params: Partial<Record<Param, z.ZodType>>;
  /** complete and cancel: meta["idempotency-key"] is required. */
  keyed: boolean;
  run(call: UcpCall, args: Args): Promise<Answer>;
}

function tool(declared: Omit<UcpTool, "input" | "destructive">, destructive = false): UcpTool {
  return { ...declared, destructive, input: z.looseObject({ meta: declared.keyed ? KEYED_META : META, ...declared.params }) };
}

/** The payload readings of one version: what its agents' payloads are judged by, and so what tools/list shows them. */
interface Payloads {
  create: z.ZodType;
  update: z.ZodType;
  complete: z.ZodType;
  /** The catalog and cart capabilities (2026-04-08 and later). */
  catalog?: { search: z.ZodType; lookup: z.ZodType; product: z.ZodType };
  cart?: z.ZodType;
}

/** The binding's tools with a version's payload readings (a version without catalog or cart lists no such tools). */
function toolset(payloads: Payloads): Record<string, UcpTool> {
  const all: Record<string, UcpTool | undefined> = {
  create_checkout: tool({
    capability: CHECKOUT,
    params: { checkout: payloads.create.describe(`${CHECKOUT_PAYLOAD} Or a cart to convert (cart_id).`) },
    keyed: false,
    mutating: true,
    description: "Create a checkout session from line items (item.id as the shop's products show it), buyer, fulfillment and discount codes, or from a cart (checkout.cart_id).",
    run: (call, { checkout }) => cartOperations.createCheckout(call, checkout),
  }),
  get_checkout: tool({
    capability: CHECKOUT,
    params: { id },
    keyed: false,
    mutating: false,
    description: "Get a checkout session as it stands, re-priced.",
    run: (call, { id }) => operations.get(call, id!),
  }),
  update_checkout: tool({
    capability: CHECKOUT,
    params: { id, checkout: payloads.update.describe(CHECKOUT_PAYLOAD) },
    keyed: false,
    mutating: true,
    description: "Replace a checkout session's line items, buyer, fulfillment and discount codes.",
    run: (call, { id, checkout }) => operations.update(call, id!, checkout),
  }),
  complete_checkout: tool({
    capability: CHECKOUT,
    params: { id, checkout: payloads.complete.describe("The complete request as UCP defines it: payment (and ap2 with AP2 negotiated).") },
    keyed: true,
    mutating: true,
    description: "Place the order: checkout.payment.instruments names the payment handler and credential.",
    // 2026-01-11 passes the payment beside the id instead of inside a checkout object.
    run: (call, { id, checkout, payment }) => operations.complete(call, id!, checkout ?? (payment ? { payment } : undefined)),
  }),
  cancel_checkout: tool(
    {
      capability: CHECKOUT,
      params: { id },
      keyed: true,
      mutating: true,
      description: "Cancel a checkout session.",
      run: (call, { id }) => operations.cancel(call, id!),
    },
    true,
  ),
  get_order: tool({
    capability: ORDER,
    params: { id },
    keyed: false,
    mutating: false,
    description: "Get an order placed through a checkout session: line items, fulfillment expectations and events.",
    run: (call, { id }) => operations.order(call, id!),
  }),
  search_catalog: payloads.catalog && tool({
    capability: SEARCH,
    params: { catalog: payloads.catalog.search.describe("The search request as UCP defines it: query and/or filters, context, pagination.") },
    keyed: false,
    mutating: false,
    description: "Search the catalog by words (catalog.query) and filters (categories, price in minor units), a page at a time (pagination.cursor, limit).",
    run: (call, { catalog }) => catalogOperations.search(call, catalog),
  }),
  lookup_catalog: payloads.catalog && tool({
    capability: LOOKUP,
    params: { catalog: payloads.catalog.lookup.describe("The lookup request as UCP defines it.") },
    keyed: false,
    mutating: false,
    description: "Products by product or variant id (catalog.ids); each variant's inputs tell which id resolved to it. Variant ids are checkout item ids.",
    run: (call, { catalog }) => catalogOperations.lookup(call, catalog),
  }),
  get_product: payloads.catalog && tool({
    capability: LOOKUP,
    params: { catalog: payloads.catalog.product.describe("The get_product request as UCP defines it.") },
    keyed: false,
    mutating: false,
    description: "One product in full (catalog.id: product or variant id), variants narrowed by catalog.selected options, with availability per option value.",
    run: (call, { catalog }) => catalogOperations.product(call, catalog),
  }),
  create_cart: payloads.cart && tool({
    capability: CART,
    params: { cart: payloads.cart.describe(CART_PAYLOAD) },
    keyed: false,
    mutating: true,
    description: "Create a cart (line items, optional buyer) with estimated totals; convert it with create_checkout's checkout.cart_id.",
    run: (call, { cart }) => cartOperations.create(call, cart),
  }),
  get_cart: payloads.cart && tool({
    capability: CART,
    params: { id },
    keyed: false,
    mutating: false,
    description: "Get a cart as it stands, re-priced; a cart that is gone is an error response with not_found.",
    run: (call, { id }) => cartOperations.get(call, id!),
  }),
  update_cart: payloads.cart && tool({
    capability: CART,
    params: { id, cart: payloads.cart.describe(CART_PAYLOAD) },
    keyed: false,
    mutating: true,
    description: "Replace a cart's line items (and buyer).",
    run: (call, { id, cart }) => cartOperations.update(call, id!, cart),
  }),
  cancel_cart: payloads.cart && tool(
    {
      capability: CART,
      params: { id },
      keyed: true,
      mutating: true,
      description: "Cancel a cart; answers it as it was.",
      run: (call, { id }) => cartOperations.cancel(call, id!),
    },
    true,
  ),
  };
  return Object.fromEntries(Object.entries(all).flatMap(([name, entry]) => (entry ? [[name, entry]] : [])));
}

const CATALOG_0408 = { search: searchRequest, lookup: lookupRequest, product: productRequest };
/** Every version's tools as its agents see them; a call runs by name with the same operation at every version. */
const TOOLSETS: Record<string, Record<string, UcpTool>> = {
  [v0825.VERSION]: toolset({
    create: z.union([v0825.createRequest, cart0825.conversionRequest]),
    update: v0825.updateRequest,
    complete: v0825.completeRequest.extend(ap2CompleteRequest.shape),
    catalog: { search: catalog0825.searchRequest, lookup: catalog0825.lookupRequest, product: catalog0825.productRequest },
    cart: cart0825.cartRequest,
  }),
  [v0408.VERSION]: toolset({
    create: z.union([v0408.createRequest, conversionRequest]),
    update: v0408.updateRequest,
    complete: v0408.completeRequest.extend(ap2CompleteRequest.shape),
    catalog: CATALOG_0408,
    cart: cartRequest,
  }),
  [v0111.VERSION]: toolset({ create: v0111.createRequest, update: v0111.updateRequest, complete: v0111.completeRequest }),
};
/** The tools calls run by (each version judges its own payloads), and what an agent of no known version is shown. */
const TOOLS = TOOLSETS[v0408.VERSION]!;

/** Every result is a UCP resource (or the version's error response). */
const RESULT = z.looseObject({ ucp: z.record(z.string(), z.unknown()) });

/** One HTTP request to the binding, as the SDK's server sees it. */
interface Exchange {
  caller: Caller;
  requestId: string;
  /** The UCP-Agent header, when the request has one (the profile's fallback to meta). */
  agentHeader: string | undefined;
  /** The HTTP request as its signature covers it. */
  signed: SignedRequest;
  /** The HTTP status a protocol error of this request is answered with (the primary signal over Streamable HTTP). */
  httpStatus?: number;
  /** tools/list: the tools at the agent's version, when the request names an agent whose version is known. */
  listed?: Record<string, UcpTool>;
}

export function ucpMcpRouter(context: UcpContext, gate: Gate): Router {
  const router = express.Router();
  const guard = mcpGuard(context.deps.config);
  const text = textBody({ limit: UCP_BODY_LIMIT, verify: keepRawBody });
  const binding = new McpBinding<UcpTool, Exchange>({
    endpoint: ENDPOINT,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
    protocol: "UCP",
    tools: TOOLS,
    output: RESULT,
    listed: (exchange) => exchange.listed,
    log: context.deps.log,
    call: (call, tool, exchange) => callTool(context, call, tool, exchange).catch((error: unknown) => failure(context, error, exchange)),
  });

  const route = router.route("/ucp/mcp");
  route.options((req, res) => guard.preflight(req, res));
  route.post(
    (req: HttpRequest, res: HttpResponse, next: (error?: unknown) => void) => {
      if (!guard.check(req, res)) return;
      // A body that cannot be read (too large, bad encoding, nested too deeply: a parse error) is refused as a JSON-RPC
      // error with its HTTP status.
      text(req, res, (error?: unknown) => {
        if (error === undefined) return next();
        const failure = failureOf(httpError(error), context.deps.log);
        const code = failure.status >= 500 ? INTERNAL_ERROR : isTooDeep(error) ? ProtocolErrorCode.ParseError : ProtocolErrorCode.InvalidRequest;
        sendRpcError(res, failure.status, code, failure.content, null, { code: failure.code, content: failure.content });
      });
    },
    async (req: HttpRequest, res: HttpResponse) => {
      const id = requestId(req);
      res.set("Request-Id", id);
      let caller: Caller | ToolError;
      try {
        caller = await admitLinked(gate, req, res, context.deps.identity);
      } catch (error) {
        caller = toToolError(error);
        if (caller.status >= 500) gate.log.error("ucp mcp admission failed", { requestId: id, error: String(error) });
      }
      if (caller instanceof ToolError) {
        // Refused before any message is read: the HTTP status and a JSON-RPC error with the UCP code.
        const failure = failureOf(caller, context.deps.log);
        if (failure.retryAfter !== undefined) res.set("Retry-After", String(failure.retryAfter));
        const data = { code: failure.code, content: failure.content, ...(failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : {}) };
        return sendRpcError(res, failure.status, failure.status >= 500 ? INTERNAL_ERROR : PROTOCOL_ERROR, failure.content, null, data);
      }
      const message = rpcMessage(req, res);
      if (!message) return;
      const agentHeader = typeof req.headers["ucp-agent"] === "string" ? req.headers["ucp-agent"] : undefined;
      const exchange: Exchange = { caller, requestId: id, agentHeader, signed: signedRequestOf(req, context.shop.baseUrl) };
      if ((message.body as { method?: unknown } | null)?.method === "tools/list") exchange.listed = await listedAt(context, message.body, agentHeader);
      try {
        const response = await binding.answer(message.body, sdkHeaders(req), exchange);
        await relay(response, res, exchange.httpStatus ?? response.status);
      } catch (error) {
        gate.log.error("ucp mcp request failed", { requestId: id, error: String(error) });
        sendRpcError(res, 500, INTERNAL_ERROR, "Internal error", null);
      }
    },
  );
  route.all((req: HttpRequest, res: HttpResponse) => {
    if (!guard.check(req, res)) return;
    res.set("Allow", "POST, OPTIONS");
    sendRpcError(res, 405, PROTOCOL_ERROR, `${req.method} is not supported: this UCP MCP endpoint is stateless Streamable HTTP; POST one JSON-RPC message per request.`, null);
  });
  return router;
}

async function callTool(context: UcpContext, { name, arguments: sent, _meta: requestMeta }: ToolCall, tool: UcpTool, exchange: Exchange): Promise<CallToolResult> {
  const parsed = args.safeParse(sent ?? {});
  if (!parsed.success) throw invalid(`The arguments of ${name} do not match the UCP schema: ${describeIssues(parsed.error)}`);
  const given = parsed.data;
  for (const param of Object.keys(tool.params) as Param[]) {
    if (given[param] === undefined && !(name === "complete_checkout" && given.payment)) throw invalid(`${name} needs ${param}.`);
  }
  const key = given.meta?.["idempotency-key"] ?? given.idempotency_key;
  if (tool.keyed && key === undefined) throw invalid(`${name} needs meta["idempotency-key"].`);
  if (key !== undefined && !validKey(key)) throw invalid('meta["idempotency-key"] must be 1 to 255 visible ASCII characters.');

  const { caller, adapter, active, ap2 } = await context.negotiate(agentOf(given, requestMeta, exchange.agentHeader), exchange.caller, exchange.signed, tool.capability);
  const call: UcpCall = { caller, requestId: exchange.requestId, executor: context.executor, shop: context.shop, adapter, active, ap2 };
  const run = () => negotiatedRun(call, tool.capability, () => tool.run(call, given));
  if (!tool.mutating || key === undefined) return result(await run());
  const request = { caller: idempotencyCaller(caller), key, method: "MCP", path: `/ucp/mcp/${name}`, body: { id: given.id, checkout: given.checkout, cart: given.cart, payment: given.payment } };
  const answer = await context.idempotent(request, run);
  return result({ status: answer.status, body: JSON.parse(answer.text) as unknown });
}

/**
 * A failure as UCP over MCP reports it: discovery and negotiation failures as JSON-RPC error −32001, bad arguments as
 * −32602, a missing resource as an isError result with the version's error response, every other protocol error as
 * −32000 (500s as −32603) with the HTTP status of its kind; `data` holds the UCP code and text.
 */
function failure(context: UcpContext, error: unknown, exchange: Exchange): CallToolResult {
  if (error instanceof ProtocolError) throw error;
  const failure = failureOf(error, context.deps.log);
  const data = { code: failure.code, content: failure.content, continue_url: context.shop.baseUrl, ...(failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : {}) };
  if (NEGOTIATION_CODES.has(failure.code)) throw new ProtocolError(DISCOVERY_ERROR, failure.content, data);
  if (failure.status === 400) throw new ProtocolError(ProtocolErrorCode.InvalidParams, failure.content, data);
  if (failure.status === 404) return { ...result({ status: 404, body: errorBody(failure) }), isError: true };
  exchange.httpStatus = failure.status;
  throw new ProtocolError(failure.status >= 500 ? INTERNAL_ERROR : PROTOCOL_ERROR, failure.content, data);
}

/** A UCP answer as a tool result: the resource in structuredContent, and as JSON text for clients without it. */
function result(answer: Answer): CallToolResult {
  const structuredContent = answer.body as Record<string, unknown>;
  return { structuredContent, content: [{ type: "text", text: JSON.stringify(structuredContent) }], ...(answer.status >= 400 ? { isError: true } : {}) };
}

/**
 * tools/list for an agent that names itself (as on a call: meta["ucp-agent"] in the params' arguments, `_meta.ucp`, or
 * the UCP-Agent header): the tools at its version (the named one, else its profile's), each payload as that version
 * reads it. Undefined (the 2026-04-08 tools) when it names none or its profile cannot be read; the list never fails.
 */
async function listedAt(context: UcpContext, body: unknown, header: string | undefined): Promise<Record<string, UcpTool> | undefined> {
  const params = (body as { params?: { arguments?: unknown; _meta?: unknown } } | null)?.params;
  const given = args.safeParse(params?.arguments ?? {});
  try {
    const agent = agentOf(given.success ? given.data : {}, params?._meta, header);
    const version = agent.version ?? (agent.profile ? (await context.profiles.get(agent.profile)).version : null);
    return version && Object.hasOwn(TOOLSETS, version) ? TOOLSETS[version] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The agent: meta["ucp-agent"] (2026-04-08), else the request's `_meta.ucp` (2026-01-11), else the UCP-Agent header.
 * UCP requires one on every call: invalid_profile_url without it.
 */
function agentOf(given: Args, requestMeta: unknown, header: string | undefined): UcpAgent {
  const old = (requestMeta as { ucp?: { profile?: unknown; version?: unknown } } | undefined)?.ucp;
  const named = given.meta?.["ucp-agent"] ?? (typeof old?.profile === "string" ? { profile: old.profile, version: typeof old.version === "string" ? old.version : undefined } : undefined);
  if (named) {
    const url = URL.canParse(named.profile) ? new URL(named.profile) : null;
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) throw new UcpError(400, "invalid_profile_url", 'meta["ucp-agent"].profile must be an http(s) URL.');
    return { profile: named.profile, version: named.version ?? null };
  }
  try {
    const agent = readUcpAgent(header);
    if (agent?.profile) return agent;
  } catch (error) {
    if (!(error instanceof StructuredFieldError)) throw error;
    throw new UcpError(400, "invalid_profile_url", `The UCP-Agent header is not a valid structured field with a profile URL (${error.message}).`);
  }
  throw new UcpError(400, "invalid_profile_url", 'Every UCP call needs meta["ucp-agent"].profile, the URL of your UCP profile.');
}

function invalid(message: string): UcpError {
  return new UcpError(400, "invalid_request", message);
}
