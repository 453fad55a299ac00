// Every tool's documented failures (ToolDefinition.errors) are real: its source can produce each code, its tests meet it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { failuresOf } from "../../src/tools/describe.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import type { AnyTool } from "../../src/tools/tool.ts";

const registry = createRegistry();
const read = (file: string) => fs.readFileSync(file, "utf8");

/** A source file and every file it imports relatively, transitively: all the code a tool can run. */
function sourceOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, target] of read(file).matchAll(/from "(\.{1,2}\/[^"]+\.ts)"/g)) {
    const next = path.resolve(path.dirname(file), target!);
    if (fs.existsSync(next)) sourceOf(next, seen);
  }
  return seen;
}

/**
 * What is wrong with a tool's documented failures: a code (a 422's, or one named on another status) that its source
 * never spells or that no test of its area expects, or a status its own test file never mentions.
 */
function unbacked(tool: AnyTool, source: string, areaTests: string, ownTest: string): string[] {
  const problems: string[] = [];
  for (const failure of failuresOf(tool)) {
    const named = (tool.errors ?? []).some((given) => given.status === failure.status && given.code === failure.code);
    if (named) {
      if (!source.includes(`"${failure.code}"`)) problems.push(`${failure.status} ${failure.code}: not in its source`);
      if (!areaTests.includes(`"${failure.code}"`)) problems.push(`${failure.status} ${failure.code}: no test expects it`);
    } else if (!new RegExp(`\\b${failure.status}\\b`).test(ownTest)) {
      problems.push(`${failure.status} (${failure.when}): its test file never mentions ${failure.status}`);
    }
  }
  return problems;
}

function check(tool: AnyTool): string[] {
  const [area, action] = tool.name.split(".") as [string, string];
  const source = [...sourceOf(path.resolve(`src/tools/${area}/${action}.ts`))].map(read).join("\n");
  const testDir = path.resolve(`test/tools/${area}`);
  const areaTests = fs.readdirSync(testDir).filter((name) => name.endsWith(".test.ts")).map((name) => read(path.join(testDir, name))).join("\n");
  return unbacked(tool, source, areaTests, read(path.join(testDir, `${action}.test.ts`)));
}

describe("documented failures", () => {
  it("name only codes a tool's source can produce and its area's tests expect, and statuses its tests meet", () => {
    const problems = registry.tools.flatMap((tool) => check(tool).map((problem) => `${tool.name} ${problem}`));
    expect(problems).toEqual([]);
  });

  it("catch a renamed code and an untested status", () => {
    const cart = registry.get("cart.checkout")!;
    const renamed = { ...cart, errors: [{ status: 422 as const, code: "cart_was_empty" }, { status: 409 as const, when: "never" }] };
    expect(check(renamed)).toEqual([
      "409 (never): its test file never mentions 409",
      "422 cart_was_empty: not in its source",
      "422 cart_was_empty: no test expects it",
    ]);
  });

  it("list each failure once", () => {
    for (const tool of registry.tools) {
      const keys = failuresOf(tool).map((failure) => `${failure.status} ${failure.code} ${failure.when ?? ""}`);
      expect(new Set(keys).size, tool.name).toBe(keys.length);
    }
  });
});
