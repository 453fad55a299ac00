// The official MCP SDK (v2) behind /api/mcp: one Server over the registry, serving 2026-07-28 and the 2025 era.
import {
  createMcpHandler,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type CallToolResult,
  type JSONRPCMessage,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import { problemOf, toToolError, ToolError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { mcpTool, refusal, toolResult } from "./mcp-tools.ts";

export const SERVER_INFO = { name: "shop", version: "1.0.0" };

export const INSTRUCTIONS =
  "Tools of a Danish online shop (prices include 25 % VAT). Money fields are integers in øre (1/100 DKK); timestamps are " +
  "ISO 8601 UTC ending in Z. tools/list shows only the tools your API key may call; without a key you get the public " +
  "catalogue tools. A refused call returns isError with an RFC 9457 problem (status, code, detail, errors[]) as structuredContent.";

/**
 * tools/list on 2026-07-28: the list depends on the key (so only the client may cache it: private), and changes only
 * when the server is upgraded, so an hour is safe.
 */
export const TOOLS_LIST_CACHE = { ttlMs: 3_600_000, cacheScope: "private" } as const;

/** Who is asking in this HTTP request: the admitted caller, or why they were refused (e.g. an invalid key). */
export interface Exchange {
  caller: Caller | ToolError;
  requestId: string;
  /**
   * `params.arguments` of a tools/call exactly as the client sent them: the SDK's schema silently strips a `__proto__`
   * key, and the executor must judge the input the client sent, as it does for REST.
   */
  sentArguments?: unknown;
}

/** The one MCP server definition both eras are served from (and the fast path answers like). */
export function mcpServer(executor: Executor, { caller, requestId, sentArguments }: Exchange): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    cacheHints: { "tools/list": TOOLS_LIST_CACHE },
  });
  server.setRequestHandler("tools/list", () => ({ tools: listedTools(executor, caller) }));
  server.setRequestHandler("tools/call", async (request): Promise<CallToolResult> => {
    const tool = executor.registry.get(request.params.name);
    if (!tool) throw unknownTool(request.params.name);
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

export function listedTools(executor: Executor, caller: Caller | ToolError) {
  return caller instanceof ToolError ? [] : executor.registry.tools.filter((tool) => executor.allows(tool, caller)).map(mcpTool);
}

export function unknownTool(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: "${name}". Call tools/list for the tools you may use.`);
}

/** Serves one JSON-RPC message through the SDK: 2026-07-28 through its per-request handler, the 2025 era statelessly. */
export class SdkDoor {
  private readonly modern: McpHttpHandler;

  private readonly executor: Executor;

  constructor(executor: Executor, log: Logger) {
    this.executor = executor;
    this.modern = createMcpHandler((context) => mcpServer(executor, exchangeOf(context.authInfo)), {
      legacy: "reject",
      onerror: (error) => log.debug("mcp request refused by the SDK", { error: error.message }),
    });
  }

  /** A 2026-07-28 request; `headers` are the MCP headers of the HTTP request (the SDK checks them against the body). */
  modernRequest(message: JSONRPCMessage, headers: Headers, exchange: Exchange): Promise<Response> {
    const authInfo: AuthInfo = { token: "", clientId: "", scopes: [], extra: { exchange } };
    return this.modern.fetch(new Request("http://localhost/api/mcp", { method: "POST", headers }), { authInfo, parsedBody: message });
  }

  /** A 2025-era request: a fresh server and stateless transport that answer in JSON (plain `curl -d` posts too). */
  async legacyRequest(message: JSONRPCMessage, headers: Headers, exchange: Exchange): Promise<Response> {
    const server = mcpServer(this.executor, exchange);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      return await transport.handleRequest(new Request("http://localhost/api/mcp", { method: "POST", headers }), { parsedBody: message });
    } finally {
      await server.close();
    }
  }
}

function exchangeOf(authInfo: AuthInfo | undefined): Exchange {
  const exchange = authInfo?.extra?.exchange as Exchange | undefined;
  if (!exchange) throw new Error("mcp: a request reached the SDK without its exchange");
  return exchange;
}
