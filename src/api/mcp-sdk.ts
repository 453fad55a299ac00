// The official MCP SDK (v2) behind /api/mcp: one server definition over the registry, serving 2026-07-28 through the
// SDK's per-request handler and the 2025 era through its stateless Streamable HTTP transport.
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
} from "@modelcontextprotocol/server";
import { problemOf, toToolError, ToolError, type Problem } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { StatelessMcpEndpoint } from "./mcp-http.ts";
import { callForm, refusal, ToolLists } from "./mcp-tools.ts";
import type { Answer, ResultCache } from "../http/result-cache.ts";

const SERVER_INFO = { name: "shop", version: "1.0.0" };

const INSTRUCTIONS =
  "Tools of a Danish online shop (prices include 25 % VAT). Money fields are integers in øre (1/100 DKK); timestamps are " +
  "ISO 8601 UTC ending in Z. tools/list shows only the tools your API key may call; without a key you get the public " +
  "catalogue tools. A refused call returns isError with an RFC 9457 problem (status, code, detail, errors[]) as structuredContent.";

/**
 * tools/list on 2026-07-28: the list depends on the key (so only the client may cache it: private), and changes only
 * when the server is upgraded, so an hour is safe.
 */
const TOOLS_LIST_CACHE = { ttlMs: 3_600_000, cacheScope: "private" } as const;

/** The SDK reads the URL of a request only for its own diagnostics; the door has routed the request already. */
const ENDPOINT = "http://localhost/api/mcp";

/** One HTTP request to the door, as the SDK's server sees it: who asks, and what the door needs back. */
export interface Exchange {
  /** The admitted caller, or why they were refused (e.g. an invalid key). */
  caller: Caller | ToolError;
  requestId: string;
  /**
   * `params.arguments` of a tools/call exactly as the client sent them: the SDK's schema silently strips a `__proto__`
   * key, and the executor must judge the input the client sent, as it does for REST.
   */
  sentArguments: unknown;
  /** The client takes gzip: a cached answer gets its gzip form at its first such hit. */
  gzip: boolean;
  /** Set by tools/call when its result is a cached answer: the SDK's response starts with the answer's bytes. */
  answer?: Answer<CallToolResult>;
  /** Set by tools/call when its result is a refusal (isError): the problem's detail, for the request's trace span. */
  refused?: string;
}

export class SdkDoor {
  private readonly endpoint: StatelessMcpEndpoint<Exchange>;
  private readonly lists: ToolLists;

  private readonly executor: Executor;
  private readonly cache: ResultCache;

  constructor(executor: Executor, cache: ResultCache, log: Logger) {
    this.executor = executor;
    this.cache = cache;
    this.lists = new ToolLists(executor);
    this.endpoint = new StatelessMcpEndpoint(ENDPOINT, (exchange) => this.server(exchange), (error) => log.debug("mcp request refused by the SDK", { error: error.message }));
  }

  /**
   * Answers one parsed JSON-RPC message. `headers` are the MCP headers of the HTTP request (the SDK checks them against
   * the body). The SDK's own predicate picks the era, as its documentation shows for serving 2025-era traffic beside a
   * strict 2026-07-28 handler.
   */
  answer(body: unknown, headers: Record<string, string>, exchange: Exchange): Promise<Response> {
    return this.endpoint.answer(body, headers, exchange);
  }

  /**
   * The one MCP server definition both eras are served from. The SDK serves one request per server instance, so each
   * request gets its own; what it answers with is made once: the tool list per scope set, cached catalogue answers.
   */
  private server(exchange: Exchange): Server {
    const { caller, requestId } = exchange;
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      cacheHints: { "tools/list": TOOLS_LIST_CACHE },
    });
    server.setRequestHandler("tools/list", () => ({ tools: caller instanceof ToolError ? [] : this.lists.for(caller) }));
    server.setRequestHandler("tools/call", async (request): Promise<CallToolResult> => {
      const tool = this.executor.registry.get(request.params.name);
      if (!tool) throw unknownTool(request.params.name);
      if (caller instanceof ToolError) return refused(exchange, problemOf(caller, requestId));
      const input = exchange.sentArguments ?? request.params.arguments ?? {};
      try {
        const answer = await this.cache.render({ name: tool.name, input, caller, door: "mcp", requestId }, "mcp", callForm, exchange.gzip);
        exchange.answer = answer;
        return answer.value;
      } catch (error) {
        return refused(exchange, problemOf(toToolError(error), requestId));
      }
    });
    return server;
  }
}

function refused(exchange: Exchange, problem: Problem): CallToolResult {
  exchange.refused = problem.detail;
  return refusal(problem);
}

function unknownTool(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: "${name}". Call tools/list for the tools you may use.`);
}

