// The toolsets (the catalogue's areas) as checkboxes, one per area with its tool count: the API-key form offers them
// unticked (none: every toolset), the OAuth consent page all ticked (untick to limit the app).
import { TOOLSETS, toolsetOf } from "../../tools/toolsets.ts";
import { count, type Html } from "../html.ts";
import { checkbox } from "./components.ts";

export function toolsetCheckboxes(tools: ReadonlyArray<{ name: string }>, checked: (toolset: string) => boolean): Html[] {
  return TOOLSETS.map((name) => {
    const inArea = tools.filter((tool) => toolsetOf(tool.name) === name).length;
    return checkbox({ name: "toolsets", value: name, label: name, hint: count(inArea, "værktøj", "værktøjer"), checked: checked(name) });
  });
}

/** The ticked toolsets of a posted form that are known areas, each once, in name order. */
export function tickedToolsets(body: Record<string, unknown>): string[] {
  const ticked = new Set(([] as unknown[]).concat(body.toolsets ?? []).filter((name): name is string => typeof name === "string"));
  return TOOLSETS.filter((name) => ticked.has(name));
}
