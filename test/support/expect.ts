// Assertions shared by every tool test: strict success shapes, problems, the scope matrix and "nothing written".
import { expect } from "vitest";
import type { AnyTool } from "../../src/tools/tool.ts";
import type { CallResult, TestServer } from "./server.ts";

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function toolOf(server: TestServer, name: string): AnyTool {
  const tool = server.runtime.registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** 200 with exactly {ok: true, result}, the result valid under the tool's strict output schema, timestamps ending in Z. */
export function expectOk<T = unknown>(server: TestServer, name: string, response: CallResult): T {
  if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${JSON.stringify(response.body)}`);
  expect(Object.keys(response.body).sort()).toEqual(["ok", "result"]);
  expect(response.body.ok).toBe(true);
  const parsed = toolOf(server, name).output.safeParse(response.body.result);
  if (!parsed.success) throw new Error(`${name} result violates its output schema: ${JSON.stringify(parsed.error.issues)}`);
  expectTimestampsInZ(response.body.result);
  for (const header of ["ratelimit-policy", "ratelimit", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) {
    expect(response.headers.get(header), `header ${header}`).not.toBeNull();
  }
  return response.body.result as T;
}

function expectTimestampsInZ(value: unknown, path = "result"): void {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value)) expect(value, path).toMatch(ISO_Z);
  else if (Array.isArray(value)) value.forEach((item, i) => expectTimestampsInZ(item, `${path}[${i}]`));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) expectTimestampsInZ(v, `${path}.${k}`);
}

/** An RFC 9457 problem with this status (and code, when given). */
export function expectProblem(response: CallResult, status: number, code?: string): void {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ ok: false, status, type: expect.any(String), title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
  if (code) expect(response.body.code).toBe(code);
  if (status === 400 && response.body.code === "invalid_input") expect(Array.isArray(response.body.errors)).toBe(true);
}

/**
 * The scope matrix of one tool: no key (401 unless anonymous), a key without the scope (403), the right scope,
 * the `*` wildcard, and a revoked key (401). `input` must be valid; success is whatever the tool answers short of 401/403.
 */
export async function expectScopeMatrix(server: TestServer, name: string, input: unknown): Promise<void> {
  const tool = toolOf(server, name);
  const anonymous = await server.call(name, input);
  if (tool.anonymous) expect([401, 403]).not.toContain(anonymous.status);
  else expectProblem(anonymous, 401, "unauthorized");

  const otherScope = tool.scope === "orders:read" ? "pages:read" : "orders:read";
  const wrong = await server.call(name, input, { key: await server.key(otherScope) });
  if (tool.anonymous) expect([401, 403]).not.toContain(wrong.status);
  else expectProblem(wrong, 403, "forbidden");

  const right = await server.call(name, input, { key: await server.key(tool.scope) });
  expect([401, 403], JSON.stringify(right.body)).not.toContain(right.status);
  const star = await server.call(name, input, { key: await server.key("*") });
  expect([401, 403], JSON.stringify(star.body)).not.toContain(star.status);

  const revokedKey = await server.key(tool.scope);
  const keyRow = await server.prisma.apiKey.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
  await server.revokeKey(keyRow.id);
  expectProblem(await server.call(name, input, { key: revokedKey }), 401, "unauthorized");
  expectProblem(await server.call(name, input, { key: "shop_nonsense_xxxxxxxxxxxxxxxxxxxxxxxx" }), 401, "unauthorized");
}

/** Each bad input is a 400 problem, and the database is exactly as before (compared with `snapshot`). */
export async function expectRejected(
  server: TestServer,
  name: string,
  key: string | undefined,
  inputs: unknown[],
  snapshot: () => Promise<unknown> = () => auditCount(server),
): Promise<void> {
  const before = await snapshot();
  for (const input of inputs) {
    const response = await server.call(name, input, key ? { key } : {});
    if (response.status !== 400) throw new Error(`${name} ${JSON.stringify(input)}: expected 400, got ${response.status} ${JSON.stringify(response.body)}`);
    expectProblem(response, 400);
  }
  const raw = ["[1,2]", "\"text\"", "not json", "", "null"];
  for (const body of raw) {
    expectProblem(await server.call(name, undefined, { ...(key ? { key } : {}), raw: body }), 400);
  }
  expect(await snapshot()).toEqual(before);
}

export async function auditCount(server: TestServer): Promise<number> {
  return server.prisma.auditEntry.count();
}

/** The newest audit entry (for asserting before/after snapshots). */
export async function lastAudit(server: TestServer) {
  return server.prisma.auditEntry.findFirst({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}
