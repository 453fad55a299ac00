// A registry of tools (the refusals at start-up, lookup by name and wire name), apart from the list of every tool in
// registry.ts: a command that needs a few tools (the CLI's keys, staff and webhook commands) loads only those.
import { z } from "zod";
import type { AnyTool } from "./tool.ts";
import { isToolScope } from "./scopes.ts";

const NAME = /^[a-z]+\.[a-z_]+$/;

export class Registry {
  readonly tools: readonly AnyTool[];
  private readonly byName = new Map<string, AnyTool>();
  private readonly byWireName = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (!NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" is not <area>.<action>.`);
      if (this.byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
      if (!tool.scope) throw new Error(`Tool "${tool.name}" has no scope.`);
      if (!isToolScope(tool.scope)) throw new Error(`Tool "${tool.name}" names an unknown scope "${tool.scope}".`);
      if (!(tool.input instanceof z.ZodObject)) throw new Error(`Tool "${tool.name}" input is not an object schema.`);
      this.byName.set(tool.name, tool);
      this.byWireName.set(wireName(tool.name), tool);
    }
    this.tools = [...tools].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name) ?? this.byWireName.get(name);
  }
}

/** The LLM-safe function name (OpenAI function names allow no dots): products.attach_image → products_attach_image. */
export function wireName(name: string): string {
  return name.replace(".", "_");
}

