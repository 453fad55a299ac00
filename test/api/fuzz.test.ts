// Fuzzing every tool through both doors: for each tool, a handful of schema-violating inputs built from its example
// (NUL, lone surrogates, huge strings, deep nesting, prototype keys, wrong types, junk in every field), sent over REST and
// MCP. Every answer must be a 4xx problem (REST) or an isError problem / JSON-RPC error (MCP), never a 5xx, and nothing
// may be written. Seeded (FUZZ_SEED to replay a run) and bounded.
import { describe, expect, it } from "vitest";
import { illFormed } from "../../src/core/well-formed-input.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { rpc } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const PER_TOOL = 6;
const TOOLS = createRegistry().tools;

/** mulberry32: a small seeded PRNG, so a failing input can be replayed with FUZZ_SEED. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function deep(levels: number): unknown {
  let value: unknown = "bund";
  for (let i = 0; i < levels; i++) value = i % 2 ? { x: value } : [value];
  return value;
}

/** Values no schema field accepts as they are, or that the validation layer refuses whatever the field. */
const HOSTILE: Array<() => unknown> = [
  () => "før\u0000efter",
  () => "Mette \ud800",
  () => "\udc00",
  () => "x".repeat(120_000),
  () => deep(64),
  () => JSON.parse('{"__proto__":{"admin":true},"a":1}'),
  () => JSON.parse('{"constructor":{"prototype":{"x":1}}}'),
  () => [null, {}, [], "\u0000"],
  () => 1e308,
  () => -1,
  () => 2 ** 53 + 2,
  () => 3.5,
  () => true,
  () => null,
  () => ({}),
  () => "../../etc/passwd\u0000",
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside an example (objects and arrays included), root first. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  const out: string[][] = [prefix];
  if (value && typeof value === "object") for (const [key, child] of Object.entries(value)) out.push(...paths(child, [...prefix, key]));
  return out;
}

function setAt(target: Json, path: string[], value: unknown): Json {
  if (path.length === 0) return value as Json;
  const copy = (Array.isArray(target) ? [...target] : { ...(target as object) }) as Record<string, Json>;
  copy[path[0]!] = setAt(copy[path[0]!] ?? null, path.slice(1), value);
  return copy as Json;
}

/** `count` hostile inputs for a tool: its example with one field (or a new one) replaced, each one invalid for sure. */
function hostileInputs(tool: AnyTool, random: () => number, count: number): unknown[] {
  const example = structuredClone(tool.examples[0] ?? {}) as Json;
  const fields = Object.keys((tool.input as unknown as { shape: Record<string, unknown> }).shape);
  const targets = [...paths(example).filter((path) => path.length > 0), ...fields.map((field) => [field]), ["__fuzz"]];
  const inputs: unknown[] = [];
  for (let i = 0; i < count; i++) {
    // The first inputs always cover the four value kinds the issue names; the rest are drawn at random.
    const hostile = HOSTILE[i < 5 ? i : Math.floor(random() * HOSTILE.length)]!();
    const path = targets[Math.floor(random() * targets.length)]!;
    let input = setAt(example, path, hostile);
    if (tool.input.safeParse(input).success && illFormed(input).length === 0) input = setAt(input, ["__fuzz"], hostile);
    inputs.push(input);
  }
  return inputs;
}

const { server, keys: { key } } = useServer({ keys: { key: ["*"] } });

const writes = async () => {
  const prisma = server.prisma;
  return [await prisma.auditEntry.count(), await prisma.order.count(), await prisma.product.count(), await prisma.setting.findMany({ orderBy: { section: "asc" } })];
};

async function expectRestRefusal(label: string, response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(response.headers.get("content-type"), label).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(text), label).toMatchObject({ ok: false, status: response.status, type: expect.any(String), title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
}

function expectMcpRefusal(label: string, answer: Awaited<ReturnType<typeof rpc>>): void {
  expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.body.error) {
    // Invalid params, or a parse error for a body nested deeper than any door reads (src/http/body.ts).
    expect([-32602, -32700], label).toContain(answer.body.error.code);
    return;
  }
  expect(answer.body.result?.isError, `${label}: ${answer.text.slice(0, 300)}`).toBe(true);
  const problem = answer.body.result!.structuredContent!;
  expect(problem, label).toMatchObject({ ok: false, type: expect.any(String), title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
  expect(Number(problem.status), label).toBeGreaterThanOrEqual(400);
  expect(Number(problem.status), label).toBeLessThan(500);
}

describe(`fuzzing every tool (FUZZ_SEED=${SEED})`, () => {
  it("answers hostile, schema-violating inputs with 4xx problems over REST and MCP, writing nothing", { timeout: 120_000 }, async () => {
    const random = prng(SEED);
    const before = await writes();
    let sent = 0;
    for (const tool of TOOLS) {
      for (const input of hostileInputs(tool, random, PER_TOOL)) {
        const label = `${tool.name} ${JSON.stringify(input).slice(0, 160)}`;
        const body = JSON.stringify(input);
        await expectRestRefusal(`REST ${label}`, await fetch(`${server.url}/api/v1/tools/${tool.name}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body,
        }));
        const message = `{"jsonrpc":"2.0","id":${++sent},"method":"tools/call","params":{"name":${JSON.stringify(tool.name)},"arguments":${body}}}`;
        expectMcpRefusal(`MCP ${label}`, await rpc(server, undefined, { key, raw: message }));
      }
    }
    expect(sent).toBe(TOOLS.length * PER_TOOL);
    expect(await writes()).toEqual(before);
  });

  it("refuses whole bodies that are not tool inputs, on both doors", { timeout: 60_000 }, async () => {
    const bodies = [
      "[".repeat(100_000) + "]".repeat(100_000),
      `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
      '{"__proto__":{"isAdmin":true}}',
      JSON.stringify({ q: "x".repeat(300_000) }),
      "\u0000",
      '"\\ud800"',
      "[]",
      "{\"q\":\"\\u0000\"",
    ];
    for (const body of bodies) {
      const label = body.slice(0, 40);
      await expectRestRefusal(`REST ${label}`, await fetch(`${server.url}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body }));
      const response = await fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"products.search","arguments":${body}}}`,
      });
      const text = await response.text();
      expect(response.status, `MCP ${label}: ${text.slice(0, 200)}`).toBeLessThan(500);
      const answer = JSON.parse(text) as { error?: unknown; result?: { isError?: boolean }; status?: number };
      expect(Boolean(answer.error) || answer.result?.isError === true || (answer.status ?? 0) >= 400, `MCP ${label}: ${text.slice(0, 200)}`).toBe(true);
    }
  });
});
