// The machine view of the registry: JSON Schemas of every tool, shared by GET /api/v1/tools, OpenAPI and MCP.
import { z } from "zod";
import type { AnyTool, DocumentedFailure, ToolAnnotations } from "../tools/tool.ts";

export type JsonSchema = Record<string, unknown>;

/** A documented failure as the catalogue and OpenAPI show it: status, the problem's code, and when it happens. */
export interface FailureDescription {
  status: number;
  code: string;
  when?: string;
}

export interface ToolDescription {
  name: string;
  description: string;
  errors: FailureDescription[];
  scope: string;
  anonymous: boolean;
  audited: boolean;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

/** Said of every tool a storefront session may call on its own customer's orders (ToolDefinition.shopper). */
const SHOPPER_NOTE = "Shoppers: own orders only.";

/** The problem code of a status whose failures share one (src/core/errors.ts), for failures that name none. */
const GENERIC_CODES: Readonly<Record<Exclude<DocumentedFailure["status"], 422>, string>> = {
  400: "invalid_input",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  429: "rate_limited",
};

/** A tool's documented failures, each with its code, in status order (the tool's own order within a status). */
export function failuresOf(tool: AnyTool): FailureDescription[] {
  return (tool.errors ?? [])
    .map((failure) => ({
      status: failure.status,
      code: failure.code ?? GENERIC_CODES[failure.status as keyof typeof GENERIC_CODES],
      ...(failure.when === undefined ? {} : { when: failure.when }),
    }))
    .sort((a, b) => a.status - b.status);
}

const cache = new WeakMap<AnyTool, ToolDescription>();

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

export function describeTool(tool: AnyTool): ToolDescription {
  let description = cache.get(tool);
  if (!description) {
    description = {
      name: tool.name,
      description: tool.shopper ? `${tool.description} ${SHOPPER_NOTE}` : tool.description,
      errors: failuresOf(tool),
      scope: tool.scope,
      anonymous: tool.anonymous,
      audited: tool.audited,
      inputSchema: jsonSchema(tool.input, "input"),
      outputSchema: jsonSchema(tool.output, "output"),
      annotations: tool.annotations,
    };
    cache.set(tool, description);
  }
  return description;
}
