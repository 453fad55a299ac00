// The model's tools, derived from the registry for one caller: each call runs through the executor as that caller.
import type { JSONSchema7 } from "ai";
import { describeTool } from "../tools/describe.ts";
import { spend } from "../http/requests.ts";
import { compactSchema } from "../tools/compact-schema.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import { problemOf, RateLimited, toToolError } from "../core/errors.ts";
import type { Caller, Door } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { wireName } from "../tools/registry.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { AssistantProfile } from "./assistant-profiles.ts";
import type { ToolDefinition, ToolOutcome, Validation } from "./turns/tool-loop.ts";

/** One tool call of a turn, for the turn's log line. */
export interface ToolCallRecord {
  name: string;
  /** 200, or the problem status the call failed with. */
  status: number;
  ms: number;
}

/** Whom a turn's tool calls act for, and where they are recorded. */
export interface CallContext {
  executor: Executor;
  limiter: RateLimiter;
  caller: Caller;
  door: Door;
  requestId: string;
  /** Called once per finished call. */
  record(call: ToolCallRecord): void;
}

/** The registry tools this caller may use with this assistant (allow-list ∩ scopes), by wire name. Fixed for the whole turn. */
export function offeredTools(executor: Executor, profile: AssistantProfile, caller: Caller): Map<string, AnyTool> {
  const offered = executor.registry.tools.filter((tool) => profile.offers(tool) && executor.allows(tool, caller));
  return new Map(offered.map((tool) => [wireName(tool.name), tool]));
}

/**
 * Every registry tool as the model sees it: named `<area>_<action>`, with the registry's description and the compact
 * input schema of the MCP door (the admin assistant offers up to every tool, so the schemas are most of each request).
 */
export function toolDefinitions(tools: readonly AnyTool[]): ToolDefinition[] {
  return tools.map((tool) => ({
    name: wireName(tool.name),
    description: tool.description,
    inputSchema: compactSchema(describeTool(tool).inputSchema) as JSONSchema7,
  }));
}

/** A call's input checked with the tool's zod schema, as the executor will check it again. */
export function validateInput(tool: AnyTool | undefined, input: unknown): Validation {
  if (!tool) return { success: false, message: "This tool is not offered in this chat." };
  const parsed = tool.input.safeParse(input);
  return parsed.success ? { success: true, value: parsed.data } : { success: false, message: parsed.error.message };
}

/**
 * Runs a call through the executor (scopes, validation, transaction, audit, AI stamping), counted against the caller's
 * rate limit like a REST call; a refusal comes back as the problem (status, code, detail) for the model to explain.
 */
export async function callTool(context: CallContext, tool: AnyTool | undefined, input: unknown): Promise<ToolOutcome> {
  const started = performance.now();
  const name = tool?.name ?? "unknown";
  try {
    if (!tool) throw new Error("A turn called a tool it was not offered.");
    const budget = await spend(context.limiter, context.caller);
    if (!budget.allowed) throw new RateLimited(budget.resetSeconds);
    const output = await context.executor.invoke({ name: tool.name, input, caller: context.caller, door: context.door, requestId: context.requestId });
    context.record({ name, status: 200, ms: elapsed(started) });
    return { ok: true, output };
  } catch (error) {
    const { ok: _ok, type: _type, ...problem } = problemOf(toToolError(error));
    context.record({ name, status: problem.status, ms: elapsed(started) });
    return { ok: false, problem: JSON.stringify(problem) };
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
