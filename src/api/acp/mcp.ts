// The ACP MCP binding, POST /acp/mcp (docs/mcp-binding.md of the spec): the five checkout operations as MCP tools with
// the binding's names and `{meta, id, payload}` arguments, served statelessly by the official SDK in both MCP eras.
// Each tool runs the same operation as the REST door (operations.ts); the key is checked per HTTP request (Bearer with
// checkout:agent), meta carries what REST's headers do (api_version, idempotency_key, signature, timestamp), results
// are the session itself and every ACP error is JSON-RPC −32000 with the flat error in `data` (−32602 for bad arguments).
import express, { type Request as HttpRequest, type Response as HttpResponse, type Router } from "express";
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Caller } from "../../tools/context.ts";
import { hasScope } from "../../tools/scopes.ts";
import { isTooDeep, textBody } from "../../http/body.ts";
import { admit, httpError, requestId, type Gate } from "../../http/requests.ts";
import { describeIssues, McpBinding, type BindingTool, type ToolCall } from "../mcp-binding.ts";
import { mcpGuard } from "../mcp-guard.ts";
import { relay, rpcMessage, sdkHeaders, sendRpcError } from "../mcp-http.ts";
import { ACP_BODY_LIMIT, AcpError, failureOf, operations, type AcpCall, type AcpContext, type Answer } from "./operations.ts";
import * as v0417 from "./v2026-04-17.ts";

const SERVER_INFO = { name: "shop-acp", version: "1.0.0" };
const INSTRUCTIONS =
  "The Agentic Commerce Protocol (ACP) checkout of a Danish online shop, as MCP tools. Every call carries " +
  `meta.api_version ("${v0417.VERSION}"); send meta.idempotency_key on create and complete. Amounts are integers in ` +
  "minor units (øre). Results are the CheckoutSession in structuredContent; errors carry ACP's Error in error.data.";

/** Every ACP error over MCP (the flat error is in `data`); bad arguments are −32602. */
const ACP_ERROR = -32000;
const ENDPOINT = "http://localhost/acp/mcp";

// The arguments as the binding names them (openrpc.agentic_checkout.json), declared once per tool: tools/list shows them,
// and a call is read with the same pieces. meta is open; each payload is the version's own reading, which judges it as
// REST's body (its errors are ACP errors); a missing api_version is the version check's to report.
const meta = z
  .looseObject({
    api_version: z.string().max(20).optional().describe(`The ACP version, "${v0417.VERSION}".`),
    idempotency_key: z.string().max(1000).optional().describe("Unique key for retry safety (recommended for create and complete)."),
    request_id: z.string().max(200).optional(),
    signature: z.string().max(1000).optional().describe("Request signature, when your key signs its requests."),
    timestamp: z.string().max(100).optional().describe("RFC 3339 signing timestamp."),
  })
  .describe("Protocol metadata (REST's headers): api_version, idempotency_key, request_id, signature, timestamp.");
const id = z.string().min(1).max(200).describe("The checkout session id.");
/** A call's arguments as read before the version judges the payload. */
const args = z.strictObject({ meta, id: id.optional(), payload: z.record(z.string(), z.unknown()).optional() });
type Args = z.infer<typeof args>;

/** meta as every tool asks for it: with the version. */
const META = meta.required({ api_version: true }).describe("Protocol metadata (REST's headers): api_version, idempotency_key, request_id, signature, timestamp.");
const BODY = "The REST request body of this operation.";

interface AcpTool extends BindingTool {
  /** Whether it names a session. */
  id: boolean;
  /** Its payload, as the version reads it (none for get; cancel's may be left out). */
  payload?: z.ZodType;
  /** The REST request this tool stands for: what its signature covers besides the timestamp and payload. */
  rest(id: string): { method: "GET" | "POST"; path: string };
  run(call: AcpCall, args: Args): Promise<Answer>;
}

function tool(declared: Omit<AcpTool, "input" | "destructive">, destructive = false): AcpTool {
  const input = z.strictObject({ meta: META, ...(declared.id ? { id } : {}), ...(declared.payload ? { payload: declared.payload } : {}) });
  return { ...declared, destructive, input };
}

const SESSIONS = "/acp/checkout_sessions";

const TOOLS: Record<string, AcpTool> = {
  create_checkout_session: tool({
    id: false,
    payload: v0417.createRequest.describe(BODY),
    mutating: true,
    rest: () => ({ method: "POST", path: SESSIONS }),
    description: "Create a checkout session: payload is CheckoutSessionCreateRequest (line_items [{id}], currency, capabilities, buyer …).",
    run: (call, { payload }) => operations.create(call, payload),
  }),
  get_checkout_session: tool({
    id: true,
    mutating: false,
    rest: (id) => ({ method: "GET", path: `${SESSIONS}/${id}` }),
    description: "Get a checkout session as it stands, re-priced.",
    run: (call, { id }) => operations.get(call, id!),
  }),
  update_checkout_session: tool({
    id: true,
    payload: v0417.updateRequest.describe(BODY),
    mutating: true,
    rest: (id) => ({ method: "POST", path: `${SESSIONS}/${id}` }),
    description: "Update a session's items, buyer, fulfillment details, selected fulfillment options or discount codes.",
    run: (call, { id, payload }) => operations.update(call, id!, payload),
  }),
  complete_checkout_session: tool({
    id: true,
    payload: v0417.completeRequest.describe(BODY),
    mutating: true,
    rest: (id) => ({ method: "POST", path: `${SESSIONS}/${id}/complete` }),
    description: "Place the order: payload.payment_data names the handler_id and instrument (or a purchase_order_number).",
    run: (call, { id, payload }) => operations.complete(call, id!, payload),
  }),
  cancel_checkout_session: tool(
    {
      id: true,
      payload: v0417.cancelRequest.optional().describe(BODY),
      mutating: true,
      rest: (id) => ({ method: "POST", path: `${SESSIONS}/${id}/cancel` }),
      description: "Cancel a checkout session, optionally with an intent_trace saying why.",
      run: (call, { id, payload }) => operations.cancel(call, id!, payload),
    },
    true,
  ),
};

/** Every result is the checkout session. */
const RESULT = z.looseObject({ id: z.string(), status: z.string() });

interface Exchange {
  caller: Caller;
  requestId: string;
}

export function acpMcpRouter(context: AcpContext, gate: Gate): Router {
  const router = express.Router();
  const { deps } = context;
  const guard = mcpGuard(deps.config);
  const text = textBody({ limit: ACP_BODY_LIMIT });
  const binding = new McpBinding<AcpTool, Exchange>({
    endpoint: ENDPOINT,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
    protocol: "ACP",
    tools: TOOLS,
    output: RESULT,
    log: deps.log,
    call: (call, tool, exchange) =>
      callTool(context, call, tool, exchange).catch((error: unknown) => {
        if (error instanceof ProtocolError) throw error;
        const failure = failureOf(error, deps.log);
        throw new ProtocolError(ACP_ERROR, failure.body.message, failure.body);
      }),
  });

  const route = router.route("/acp/mcp");
  route.options((req, res) => guard.preflight(req, res));
  route.post(
    (req: HttpRequest, res: HttpResponse, next: (error?: unknown) => void) => {
      if (!guard.check(req, res)) return;
      text(req, res, (error?: unknown) => {
        if (error === undefined) return next();
        const failure = failureOf(httpError(error), deps.log);
        // JSON nested too deeply is a parse error to JSON-RPC, like JSON that does not parse.
        sendRpcError(res, failure.status, isTooDeep(error) ? ProtocolErrorCode.ParseError : ACP_ERROR, failure.body.message, null, failure.body);
      });
    },
    async (req: HttpRequest, res: HttpResponse) => {
      const id = requestId(req);
      res.set("Request-Id", id);
      let caller: Caller;
      try {
        caller = await admit(gate, req, res);
        // Authentication is the connection's (the binding keeps Authorization out of meta): checked before any message.
        if (caller.kind !== "key" || !caller.keyId) throw new AcpError(401, "unauthorized", "Authorization: Bearer <API key> is required.");
        if (!hasScope(caller.scopes, "checkout:agent")) throw new AcpError(403, "forbidden", "This API key lacks the checkout:agent scope.");
      } catch (error) {
        const failure = failureOf(error, deps.log);
        res.set(failure.headers);
        return sendRpcError(res, failure.status, ACP_ERROR, failure.body.message, null, failure.body);
      }
      const message = rpcMessage(req, res);
      if (!message) return;
      try {
        await relay(await binding.answer(message.body, sdkHeaders(req), { caller, requestId: id }), res);
      } catch (error) {
        gate.log.error("acp mcp request failed", { requestId: id, error: String(error) });
        sendRpcError(res, 500, ProtocolErrorCode.InternalError, "Internal error", null);
      }
    },
  );
  route.all((req: HttpRequest, res: HttpResponse) => {
    if (!guard.check(req, res)) return;
    res.set("Allow", "POST, OPTIONS");
    sendRpcError(res, 405, ACP_ERROR, `${req.method} is not supported: this ACP MCP endpoint is stateless Streamable HTTP; POST one JSON-RPC message per request.`, null);
  });
  return router;
}

async function callTool(context: AcpContext, { name, arguments: sent }: ToolCall, tool: AcpTool, exchange: Exchange): Promise<CallToolResult> {
  const parsed = args.safeParse(sent ?? {});
  if (!parsed.success) throw invalidParams(`The arguments of ${name} do not match the ACP MCP binding: ${describeIssues(parsed.error)}`);
  const given = parsed.data;
  if (tool.id && given.id === undefined) throw invalidParams(`${name} needs id.`, "$.id");
  if (tool.payload && !tool.payload.isOptional() && given.payload === undefined) throw invalidParams(`${name} needs payload.`, "$.payload");
  if (!tool.payload && given.payload !== undefined) throw invalidParams(`${name} takes no payload.`, "$.payload");
  // A signature covers the REST request the tool stands for, so one made for a tool or a session fits no other.
  const signed = { ...tool.rest(given.id ?? ""), body: tool.mutating ? (given.payload ?? {}) : undefined };
  const caller = await context.admit(exchange.caller, { version: given.meta.api_version, signature: given.meta.signature, timestamp: given.meta.timestamp }, signed);
  const call: AcpCall = { caller, requestId: given.meta.request_id ?? exchange.requestId, executor: context.deps.executor, shop: context.shop };
  const key = given.meta.idempotency_key;
  if (!tool.mutating || key === undefined) return result(await tool.run(call, given));
  // Scoped like REST's keys (per API key and operation), under the binding's own path.
  const answer = await context.idempotent(call, key, `/acp/mcp/${name}/${given.id ?? ""}`, given.payload ?? {}, () => tool.run(call, given));
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (answer.status >= 400) throw new ProtocolError(ACP_ERROR, String(body.message ?? "ACP error"), body);
  return result({ status: answer.status, body });
}

/** A session as the tool result: the object in structuredContent, and as JSON text for clients without it. */
function result(answer: Answer): CallToolResult {
  const structuredContent = answer.body as Record<string, unknown>;
  return { structuredContent, content: [{ type: "text", text: JSON.stringify(structuredContent) }] };
}

function invalidParams(message: string, param?: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, v0417.error(400, "invalid_request", message, param));
}
