// What the protocols' MCP bindings (/ucp/mcp, /acp/mcp) share: tools whose arguments are declared once in zod and
// listed with the JSON Schema derived from that zod, on a stateless SDK server per request (both MCP eras) that answers
// tools/list and hands each tools/call of a listed tool to the door.
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type Tool } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Logger } from "../core/log.ts";
import { compactSchema } from "../tools/compact-schema.ts";
import { jsonSchema } from "../tools/describe.ts";
import { fieldErrors } from "../tools/executor.ts";
import { StatelessMcpEndpoint } from "./mcp-http.ts";

export interface BindingTool {
  description: string;
  /** The arguments as the protocol names them: tools/list shows this schema. */
  input: z.ZodObject;
  mutating: boolean;
  /** Cancels what it names. */
  destructive: boolean;
}

/** What a binding's tools/call handler gets: the call's params as the client sent them. */
export interface ToolCall {
  name: string;
  arguments?: unknown;
  _meta?: unknown;
}

export interface BindingOptions<T extends BindingTool, X> {
  /** The URL the SDK reads a request's for its own diagnostics. */
  endpoint: string;
  serverInfo: { name: string; version: string };
  instructions: string;
  /** The protocol's name, as an unknown tool's error says it. */
  protocol: string;
  tools: Readonly<Record<string, T>>;
  /** Every tool's result: the protocol's resource. */
  output: z.ZodObject;
  /**
   * The tools tools/list shows this exchange, when they depend on it (UCP: the agent's version); `tools` otherwise.
   * Their names are `tools`' names; a call is still answered by `tools`.
   */
  listed?(exchange: X): Readonly<Record<string, T>> | undefined;
  /** Answers a call of one of `tools`: a result, or a ProtocolError thrown. */
  call(call: ToolCall, tool: T, exchange: X): Promise<CallToolResult>;
  log: Logger;
}

/** A binding: the SDK behind it, the 2026-07-28 era through its per-request handler, the 2025 era on a stateless transport. */
export class McpBinding<T extends BindingTool, X> {
  private readonly options: BindingOptions<T, X>;
  private readonly endpoint: StatelessMcpEndpoint<X>;
  private readonly lists = new WeakMap<Readonly<Record<string, T>>, Tool[]>();

  constructor(options: BindingOptions<T, X>) {
    this.options = options;
    const refused = (error: Error) => options.log.debug(`${options.serverInfo.name} mcp request refused by the SDK`, { error: error.message });
    this.endpoint = new StatelessMcpEndpoint(options.endpoint, (exchange) => this.server(exchange), refused);
  }

  /** Answers one parsed JSON-RPC message; `headers` are the request's MCP headers (the SDK checks them against the body). */
  answer(body: unknown, headers: Record<string, string>, exchange: X): Promise<Response> {
    return this.endpoint.answer(body, headers, exchange);
  }

  private server(exchange: X): Server {
    const { serverInfo, instructions, tools, protocol } = this.options;
    const server = new Server(serverInfo, { capabilities: { tools: { listChanged: false } }, instructions });
    server.setRequestHandler("tools/list", () => ({ tools: this.list(this.options.listed?.(exchange) ?? tools) }));
    server.setRequestHandler("tools/call", (request) => {
      const tool = Object.hasOwn(tools, request.params.name) ? tools[request.params.name] : undefined;
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: "${request.params.name}". ${protocol} tools: ${Object.keys(tools).join(", ")}.`);
      return this.options.call(request.params, tool, exchange);
    });
    return server;
  }

  /** A tool set as tools/list shows it (each set's listing derived once). */
  private list(tools: Readonly<Record<string, T>>): Tool[] {
    let list = this.lists.get(tools);
    if (list) return list;
    const outputSchema = listedSchema(this.options.output, "output");
    list = Object.entries(tools).map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: listedSchema(tool.input, "input"),
      outputSchema,
      annotations: { readOnlyHint: !tool.mutating, destructiveHint: tool.destructive, idempotentHint: !tool.mutating, openWorldHint: false },
    }));
    this.lists.set(tools, list);
    return list;
  }
}

/** A schema as tools/list shows it: derived from the zod, compacted as the main MCP door's are. */
function listedSchema(schema: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  return compactSchema(jsonSchema(schema, io)) as Tool["inputSchema"];
}

/** A zod failure in a few words: the first five paths and their problems. */
export function describeIssues(error: z.ZodError): string {
  return fieldErrors(error).slice(0, 5).map((entry) => `$.${entry.path}: ${entry.message}`).join("; ");
}
