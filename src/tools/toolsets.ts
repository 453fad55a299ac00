// Toolsets: the catalogue's areas (`orders` of `orders.list`) a caller may be limited to, so an agent's tool list holds
// only what it works with. A key carries them from its creation; an MCP connection may narrow them further
// (`/api/mcp?toolsets=orders,returns`); an OAuth grant may carry them too. One rule decides for every door.
import { z } from "zod";
import { Invalid } from "../core/errors.ts";
import { AREA_DESCRIPTIONS } from "./areas.ts";

/** Every toolset, in name order: the areas of the catalogue. */
export const TOOLSETS: readonly [string, ...string[]] = Object.keys(AREA_DESCRIPTIONS).sort() as [string, ...string[]];

/** The toolsets a caller is limited to; undefined (no limit) allows every tool. */
export type Toolsets = ReadonlySet<string> | undefined;

/** The toolset a tool belongs to: its area, the part of its name before the dot. */
export function toolsetOf(toolName: string): string {
  const dot = toolName.indexOf(".");
  return dot < 0 ? toolName : toolName.slice(0, dot);
}

/**
 * Whether a caller limited to `toolsets` may list and call the tool. The one rule every door and grant shares. A limit
 * names areas, and a shopper's OAuth grant may also name single tools of an area (`user.list_orders`).
 */
export function toolsetsAllow(toolsets: Toolsets, toolName: string): boolean {
  return toolsets === undefined || toolsets.has(toolsetOf(toolName)) || toolsets.has(toolName);
}

/** The toolsets both limits allow (undefined: no limit). Narrowing never widens: an empty result allows nothing. */
export function narrowToolsets(held: Toolsets, asked: Toolsets): Toolsets {
  if (held === undefined) return asked;
  if (asked === undefined) return held;
  return new Set([...held].filter((name) => asked.has(toolsetOf(name))));
}

/** A stored list (a key's column: empty = every toolset) as a limit. */
export function storedToolsets(names: readonly string[] | null | undefined): Toolsets {
  return names && names.length ? new Set(names) : undefined;
}

/** The toolsets of a comma-separated list (`orders,returns`, as a query parameter or CLI option); 400 on an unknown name. */
export function parseToolsets(text: string): Set<string> {
  const names = text.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !TOOLSETS.includes(name));
  if (unknown.length || names.length === 0) {
    throw new Invalid(`Unknown toolset${unknown.length === 1 ? "" : "s"} ${unknown.map((name) => `"${name}"`).join(", ") || "(none named)"}; toolsets are ${TOOLSETS.join(", ")}.`);
  }
  return new Set(names);
}

/** Why a tool outside the caller's toolsets is refused (403). */
export function outsideToolsets(toolName: string, toolsets: ReadonlySet<string>): string {
  const held = [...toolsets].sort().join(", ") || "none";
  return `${toolName} is outside this caller's toolsets (${held}).`;
}

/** A toolset list as tools take it (keys.create): known names, each once; omitted or empty means every toolset. */
export const toolsetList = z
  .array(z.enum(TOOLSETS, { error: (issue) => `Unknown toolset "${String(issue.input)}"` }))
  .max(TOOLSETS.length)
  .describe("Limit to these areas (omit: all).");
