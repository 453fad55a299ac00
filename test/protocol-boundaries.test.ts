// The agent protocols stay in their doors: no UCP or ACP name in the code (identifiers, imports, strings; comments may
// tell history) of the order domain, of checkout.complete or of core, except the pinned names listed below, and the
// runtime imports no door (the composition root, src/compose.ts, wires them).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Names kept on purpose: settings, labels and wire fields that are pinned interfaces, not protocol code. */
const SETTINGS = ["ucpTestMode", "ucpSimulationSecret", "ucpAllowLocalProfiles", "UCP_TEST_MODE", "UCP_SIMULATION_SECRET", "UCP_ALLOW_LOCAL_PROFILES"];
const ALLOWED: Record<string, readonly string[]> = {
  // The Order column and orders.* output field naming the checkout session an order completes.
  "src/tools/orders/place.ts": ["acpSessionId"],
  "src/tools/orders/schemas.ts": ["acpSessionId"],
  // The settings read from the pinned UCP_* environment variables (tests set them by these names too) ...
  "src/core/config.ts": SETTINGS,
  // ... and the production profile's refusals and warnings, which name them and what they open to the operator.
  "src/core/production.ts": [...SETTINGS, "UCP", "ACP", "UCP-Agent"],
  // The door labels of GET /metrics.
  "src/core/metrics.ts": ["ucp", "acp"],
};

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The words naming a protocol in a file's code: its identifiers and string texts (import paths too), never comments. */
function protocolNames(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      found.push(...(node.text.match(/[\w-]*(?:ucp|acp)[\w-]*/gi) ?? []));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the protocol boundaries", () => {
  it("leave no UCP or ACP name in the order domain, checkout.complete and core but the pinned ones", () => {
    const scanned = [...files(path.join(ROOT, "src/tools/orders")), path.join(ROOT, "src/tools/checkout/complete.ts"), ...files(path.join(ROOT, "src/core"))];
    expect(scanned.length).toBeGreaterThan(40);
    const stray = scanned.flatMap((file) => {
      const relative = path.relative(ROOT, file);
      const allowed = new Set(ALLOWED[relative] ?? []);
      return protocolNames(file).filter((name) => !allowed.has(name)).map((name) => `${relative}: ${name}`);
    });
    expect(stray).toEqual([]);
  });

  it("find a protocol's name in code, not in comments", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "protocol-names-"));
    const file = path.join(dir, "sample.ts");
    fs.writeFileSync(file, '// UCP in a comment\nimport { x } from "../api/acp/y.ts";\n/* ACP */ const ucpThing = `for ${x} UCP`;\n');
    try {
      expect(protocolNames(file)).toEqual(["acp", "ucpThing", "UCP"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keep the runtime free of doors: only the composition root imports them", () => {
    const runtime = path.join(ROOT, "src/runtime.ts");
    const source = ts.createSourceFile(runtime, fs.readFileSync(runtime, "utf8"), ts.ScriptTarget.Latest, true);
    const imports = source.statements.filter(ts.isImportDeclaration).map((statement) => (statement.moduleSpecifier as ts.StringLiteral).text);
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((specifier) => /^\.\/(api|web)\//.test(specifier))).toEqual([]);
  });
});
