// .env.example and the table in docs/configuration.md stay complete: each names exactly the environment variables the
// code under src/ reads (.env.example each with a comment), so a variable added to the code without a line there (or
// left there after its code went) fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Set by the test runner, not by an operator. */
const NOT_SETTINGS = new Set(["VITEST"]);
/** Documented though no file under src/ names them: the OpenTelemetry SDK reads its OTEL_* variables itself. */
const READ_ELSEWHERE = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME"];

/** `env.NAME`, `process.env.NAME`, `env["NAME"]`, and helpers called as `int(env, "NAME", …)`. */
const PATTERNS = [/\benv\.([A-Z][A-Z0-9_]*)\b/g, /\benv\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g, /\(\s*env\s*,\s*["'`]([A-Z][A-Z0-9_]*)["'`]/g];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function readByCode(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles("src")) {
    const text = fs.readFileSync(file, "utf8");
    for (const pattern of PATTERNS) for (const match of text.matchAll(pattern)) if (!NOT_SETTINGS.has(match[1]!)) names.add(match[1]!);
  }
  return names;
}

/** The variables .env.example sets or shows commented out ("NAME=…" or "#NAME=…"), each with a "# …" comment above. */
function documented(): { names: string[]; uncommented: string[] } {
  const lines = fs.readFileSync(".env.example", "utf8").split("\n");
  const names: string[] = [];
  const uncommented: string[] = [];
  lines.forEach((line, i) => {
    const name = /^#?([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (!name) return;
    names.push(name);
    // The comment may cover a group of variables: the nearest non-variable line above must be a "# " comment.
    let above = i - 1;
    while (above >= 0 && /^#?[A-Z][A-Z0-9_]*=/.test(lines[above]!)) above--;
    if (!lines[above]?.startsWith("# ")) uncommented.push(name);
  });
  return { names, uncommented };
}

/** The variables the first column of docs/configuration.md's table names ("| `NAME` |" or "| `A`, `B` |"). */
function tabled(): string[] {
  return fs
    .readFileSync("docs/configuration.md", "utf8")
    .split("\n")
    .flatMap((line) => {
      const cell = /^\| (`[A-Z][A-Z0-9_]*`(?:, `[A-Z][A-Z0-9_]*`)*) \|/.exec(line)?.[1];
      return cell ? [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!) : [];
    });
}

describe(".env.example", () => {
  it("names exactly the variables the code reads, once each, each explained", () => {
    const read = readByCode();
    // The scan itself works: names read in the configuration and outside it.
    expect(read).toContain("PORT");
    expect(read).toContain("SHUTDOWN_TIMEOUT_MS");
    expect(read).toContain("DATABASE_POOL_SIZE");
    const { names, uncommented } = documented();
    expect(names.length).toBe(new Set(names).size);
    expect([...new Set(names)].sort()).toEqual([...new Set([...read, ...READ_ELSEWHERE])].sort());
    expect(uncommented).toEqual([]);
  });
});

describe("docs/configuration.md", () => {
  it("has one table row for each variable .env.example names", () => {
    const names = tabled();
    expect(names).toContain("PORT");
    expect(names.length).toBe(new Set(names).size);
    expect([...names].sort()).toEqual([...new Set(documented().names)].sort());
  });
});
