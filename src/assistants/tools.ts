// The model's tools, derived from the registry for one caller: each call runs through the executor as that caller.
import { jsonSchema, tool, type JSONSchema7, type Schema, type ToolSet } from "ai";
import { describeTool } from "../api/catalogue.ts";
import { spend } from "../api/http.ts";
import { compactSchema } from "../api/mcp-schema.ts";
import type { RateLimiter } from "../api/rate-limit.ts";
import { problemOf, RateLimited, toToolError } from "../core/errors.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import { wireName } from "../tools/registry.ts";
import type { AnyTool } from "../tools/tool.ts";
import { forModel } from "./model-output.ts";
import type { AssistantProfile } from "./profiles.ts";

/** One tool call of a turn, for the turn's log line. */
export interface ToolCallRecord {
  name: string;
  /** 200, or the problem status the call failed with. */
  status: number;
  ms: number;
}

export interface ToolSetOptions {
  executor: Executor;
  limiter: RateLimiter;
  profile: AssistantProfile;
  caller: Caller;
  /** offeredTools() of this turn. */
  offered: readonly AnyTool[];
  requestId: string;
  /** Called once per finished call. */
  record(call: ToolCallRecord): void;
}

/** The registry tools this caller may use with this assistant (allow-list ∩ scopes). Fixed for the whole turn. */
export function offeredTools(executor: Executor, profile: AssistantProfile, caller: Caller): AnyTool[] {
  return executor.registry.tools.filter((tool) => profile.offers(tool) && executor.allows(tool, caller));
}

/**
 * AI SDK tools named `<area>_<action>` with the registry's description and input schema (compact, as MCP shows it). A call counts against the
 * caller's rate limit like a REST call and runs through the executor (scopes, validation, transaction, audit, AI
 * stamping); a refusal comes back to the model as a tool error whose text is the problem (status, code, detail). The
 * model reads at most `maxToolResultChars` of a result (forModel); the UI stream and the stored chat keep all of it.
 */
export function buildToolSet({ executor, limiter, profile, caller, offered, requestId, record }: ToolSetOptions): ToolSet {
  const tools: ToolSet = {};
  for (const definition of offered) {
    tools[wireName(definition.name)] = tool({
      description: definition.description,
      inputSchema: inputSchema(definition),
      execute: async (input: unknown) => {
        const started = performance.now();
        try {
          const budget = await spend(limiter, caller);
          if (!budget.allowed) throw new RateLimited(budget.resetSeconds);
          const result = await executor.invoke({ name: definition.name, input, caller, door: profile.door, requestId });
          record({ name: definition.name, status: 200, ms: elapsed(started) });
          return result;
        } catch (error) {
          const problem = problemOf(toToolError(error));
          record({ name: definition.name, status: problem.status, ms: elapsed(started) });
          const { ok: _ok, type: _type, ...described } = problem;
          throw new ToolProblem(JSON.stringify(described), { cause: error });
        }
      },
      toModelOutput: ({ output }) => ({ type: "json", value: forModel(output, profile.limits.maxToolResultChars) }),
    });
  }
  return tools;
}

const schemas = new WeakMap<AnyTool, Schema<unknown>>();

/**
 * The tool's input schema as the model sees it: the compact JSON Schema of the MCP door (the admin assistant offers up to
 * every tool, so the schemas are most of each request), validated with the tool's zod schema. Made once per process.
 */
function inputSchema(definition: AnyTool): Schema<unknown> {
  let schema = schemas.get(definition);
  if (!schema) {
    schema = jsonSchema<unknown>(compactSchema(describeTool(definition).inputSchema) as JSONSchema7, {
      validate: (value) => {
        const parsed = definition.input.safeParse(value);
        return parsed.success ? { success: true, value: parsed.data } : { success: false, error: parsed.error };
      },
    });
    schemas.set(definition, schema);
  }
  return schema;
}

/** A failed call as the model (and the UI) sees it: the problem JSON alone, without an "Error:" prefix. */
class ToolProblem extends Error {
  override toString(): string {
    return this.message;
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
