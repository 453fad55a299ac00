// A registry of tools (the refusals at start-up, lookup by name and wire name), apart from the list of every tool in
// registry.ts: a command that needs a few tools (the CLI's keys, staff and webhook commands) loads only those.
import { z } from "zod";
import type { AnyTool } from "./tool.ts";
import { isToolScope } from "./scopes.ts";

const NAME = /^[a-z]+\.[a-z_]+$/;

export class Registry {
  /** The public tools: every door, listing and document is made from these. */
  readonly tools: readonly AnyTool[];
  private readonly byName = new Map<string, AnyTool>();
  private readonly byWireName = new Map<string, AnyTool>();
  /** Internal tools (`internal: true`): no name reaches them, only their definition (`owns`). */
  private readonly internal = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (!NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" is not <area>.<action>.`);
      if (this.byName.has(tool.name) || this.internal.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
      if (!tool.scope) throw new Error(`Tool "${tool.name}" has no scope.`);
      if (!isToolScope(tool.scope)) throw new Error(`Tool "${tool.name}" names an unknown scope "${tool.scope}".`);
      if (!(tool.input instanceof z.ZodObject)) throw new Error(`Tool "${tool.name}" input is not an object schema.`);
      if (tool.internal) {
        this.internal.set(tool.name, tool);
        continue;
      }
      this.byName.set(tool.name, tool);
      this.byWireName.set(wireName(tool.name), tool);
    }
    this.tools = tools.filter((tool) => !tool.internal).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A public tool by its name or wire name (what a door was asked for); never an internal one. */
  get(name: string): AnyTool | undefined {
    return this.byName.get(name) ?? this.byWireName.get(name);
  }

  /** Whether this very definition is registered here, public or internal (the executor runs only what it registered). */
  owns(tool: AnyTool): boolean {
    return (tool.internal ? this.internal.get(tool.name) : this.byName.get(tool.name)) === tool;
  }
}

/** The LLM-safe function name (OpenAI function names allow no dots): products.attach_image → products_attach_image. */
export function wireName(name: string): string {
  return name.replace(".", "_");
}

