// The machine view of the registry: JSON Schemas of every tool, shared by GET /api/v1/tools, OpenAPI and MCP.
import { z } from "zod";
import type { AnyTool, ToolAnnotations } from "../tools/tool.ts";

export type JsonSchema = Record<string, unknown>;

export interface ToolDescription {
  name: string;
  description: string;
  scope: string;
  anonymous: boolean;
  audited: boolean;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

/** Said of every tool a storefront session may call on its own customer's orders (ToolDefinition.shopper). */
export const SHOPPER_NOTE = "Shoppers: own orders only.";

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
