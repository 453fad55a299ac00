// The MCP door: POST /api/mcp, Streamable HTTP without sessions, one SDK Server + transport per request over the registry.
import express, { type Request as HttpRequest, type Response as HttpResponse, type Router } from "express";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isInitializeRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { problemOf, toToolError, ToolError } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { admit, requestId, sendProblem, type Gate } from "./http.ts";
import { mcpTool, refusal, toolResult } from "./mcp-tools.ts";
import { BODY_LIMIT } from "./rest.ts";

const INSTRUCTIONS =
  "Tools of a Danish online shop (prices include 25 % VAT). Money fields are integers in øre (1/100 DKK). " +
  "tools/list shows only the tools your API key may call; without a key you get the public catalogue tools. " +
  "A refused call returns isError with an RFC 9457 problem (status, code, detail, errors[]) as structuredContent.";

/** JSON-RPC's implementation-defined server error, as the SDK transport uses for HTTP-level refusals. */
const SERVER_ERROR = -32000;

/** Who is asking in this HTTP request: the admitted caller, or why they were refused (invalid key, rate limit). */
interface Exchange {
  caller: Caller | ToolError;
  requestId: string;
  /**
   * `params.arguments` of a tools/call exactly as the client sent them: the SDK's schema silently strips a
   * `__proto__` key, and the executor must judge the input the client sent, as it does for REST.
   */
  sentArguments?: unknown;
}

export function mcpRouter(executor: Executor, gate: Gate): Router {
  const router = express.Router();

  router.post("/api/mcp", express.text({ type: () => true, limit: BODY_LIMIT }), async (req: HttpRequest, res: HttpResponse) => {
    const id = requestId(req);
    let caller: Caller | ToolError;
    try {
      caller = await admit(gate, req, res);
    } catch (error) {
      caller = toToolError(error);
      if (caller.status >= 500) gate.log.error("mcp admission failed", { requestId: id, error: String(error) });
    }
    const parsed = parseMessage(req.body);
    if ("fault" in parsed) {
      sendRpcError(res, parsed.fault.status, parsed.fault.code, parsed.fault.message, parsed.fault.id);
      return;
    }
    const message = parsed.message;
    // A refused tool call is a tool result (isError) the model can read; any other refused request fails over HTTP.
    if (caller instanceof ToolError && !("method" in message && message.method === "tools/call" && "id" in message)) {
      sendProblem(res, caller, id);
      return;
    }
    if (!(caller instanceof ToolError)) caller.agent = agentOf(message, req);
    try {
      const answer = await serve(executor, { caller, requestId: id, sentArguments: parsed.sentArguments }, message, req);
      res.status(answer.status);
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(await answer.text());
    } catch (error) {
      gate.log.error("mcp request failed", { requestId: id, error: String(error) });
      sendRpcError(res, 500, ErrorCode.InternalError, "Internal error", "id" in message ? (message.id ?? null) : null);
    }
  });

  router.all("/api/mcp", (req: HttpRequest, res: HttpResponse) => {
    res.set("Allow", "POST");
    sendRpcError(
      res,
      405,
      SERVER_ERROR,
      `${req.method} is not supported here: this MCP endpoint is stateless Streamable HTTP (no sessions, no server-sent event ` +
        "stream). POST one JSON-RPC message per request, e.g. {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}.",
      null,
    );
  });

  return router;
}

/** Runs one JSON-RPC message through a fresh SDK server and stateless transport, answering in JSON. */
async function serve(executor: Executor, exchange: Exchange, message: JSONRPCMessage, req: HttpRequest): Promise<Response> {
  const server = mcpServer(executor, exchange);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // The body is already parsed; the transport sees a canonical JSON request, so plain `curl -d` posts work too.
    const headers = new Headers({ accept: "application/json, text/event-stream", "content-type": "application/json" });
    const version = req.get("mcp-protocol-version");
    if (version) headers.set("mcp-protocol-version", version);
    const request = new Request(new URL(req.originalUrl, "http://localhost"), { method: "POST", headers });
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}

function mcpServer(executor: Executor, { caller, requestId, sentArguments }: Exchange): Server {
  const server = new Server({ name: "shop", version: "1.0.0" }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: caller instanceof ToolError ? [] : executor.registry.tools.filter((tool) => executor.allows(tool, caller)).map(mcpTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = executor.registry.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: "${request.params.name}". Call tools/list for the tools you may use.`);
    if (caller instanceof ToolError) return refusal(problemOf(caller, requestId));
    try {
      const result = await executor.invoke({ name: tool.name, input: sentArguments ?? request.params.arguments ?? {}, caller, door: "mcp", requestId });
      return toolResult(tool, result);
    } catch (error) {
      return refusal(problemOf(toToolError(error), requestId));
    }
  });
  return server;
}

type Parsed = { message: JSONRPCMessage; sentArguments?: unknown } | { fault: { status: number; code: number; message: string; id: string | number | null } };

type Issues = { issues: Array<{ path: PropertyKey[]; message: string }> };
const PARAMS_CHECKED: Record<string, { safeParse(value: unknown): { success: boolean; error?: Issues } } | undefined> = {
  "tools/call": CallToolRequestSchema,
  "tools/list": ListToolsRequestSchema,
  initialize: InitializeRequestSchema,
};

function parseMessage(body: unknown): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === "string" ? body : "");
  } catch {
    return { fault: { status: 400, code: ErrorCode.ParseError, message: "Parse error: the body is not valid JSON.", id: null } };
  }
  if (Array.isArray(value)) {
    const message = "Invalid Request: JSON-RPC batches are not supported; POST one message per request.";
    return { fault: { status: 400, code: ErrorCode.InvalidRequest, message, id: null } };
  }
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) {
    const given = (value as { id?: unknown } | null)?.id;
    const id = typeof given === "string" || typeof given === "number" ? given : null;
    return { fault: { status: 400, code: ErrorCode.InvalidRequest, message: "Invalid Request: the body is not a JSON-RPC 2.0 message.", id } };
  }
  // The SDK reports a malformed params object as an internal error (-32603); answer it as invalid params instead.
  const message = checked.data;
  const schema = "id" in message && "method" in message ? PARAMS_CHECKED[message.method] : undefined;
  const checkedParams = schema?.safeParse(message);
  if (checkedParams && !checkedParams.success) {
    const issues = (checkedParams.error?.issues ?? []).map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`);
    const detail = `Invalid params for ${(message as { method: string }).method}: ${issues.join("; ")}`;
    return { fault: { status: 200, code: ErrorCode.InvalidParams, message: detail, id: (message as { id: string | number }).id } };
  }
  return { message, sentArguments: (value as { params?: { arguments?: unknown } }).params?.arguments };
}

/** The MCP client acting, for flagging AI-made changes: initialize's clientInfo, else the User-Agent, else "mcp". */
function agentOf(message: JSONRPCMessage, req: HttpRequest): string {
  const name = isInitializeRequest(message) ? message.params.clientInfo.name : req.get("user-agent");
  return name?.trim() ? name.trim().slice(0, 200) : "mcp";
}

function sendRpcError(res: HttpResponse, status: number, code: number, message: string, id: string | number | null): void {
  res.status(status).type("application/json").send(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
}
