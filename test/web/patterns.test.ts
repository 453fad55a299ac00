// Every `pattern` a form sends to the browser compiles under the `v` flag, as current browsers compile it: an
// invalid pattern is silently dropped, and the field loses its check.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../src/web");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("form patterns", () => {
  it("compile with the v flag, anchored as HTML anchors them", () => {
    const found: Array<{ file: string; pattern: string }> = [];
    for (const file of sources(root)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/pattern(?::\s*|=\\?")"((?:[^"\\]|\\.)*)"/g)) {
        found.push({ file: path.relative(root, file), pattern: JSON.parse(`"${match[1]}"`) as string });
      }
    }
    expect(found.length).toBeGreaterThan(8);
    for (const { file, pattern } of found) {
      expect(() => new RegExp(`^(?:${pattern})$`, "v"), `${file}: ${pattern}`).not.toThrow();
    }
  });

  it("still accept what they should", () => {
    expect(new RegExp("^(?:[a-z0-9\\-]{2,})$", "v").test("ny-side-2")).toBe(true);
    expect(new RegExp("^(?:[A-Za-z0-9_\\-]{3,64})$", "v").test("VINTER_25-X")).toBe(true);
  });
});
