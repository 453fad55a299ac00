// The executor's audit writer and a tool's `sensitive` fields: their values never reach the audit log, whether the
// handler records a snapshot holding them (at any depth) or the executor's safety net records the input.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Executor } from "../../src/tools/executor.ts";
import { Registry } from "../../src/tools/registry.ts";
import { defineTool, WRITE, type AnyTool } from "../../src/tools/tool.ts";
import { lastAudit } from "../support/expect.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

const base = {
  description: "A tool used only to test how the audit log treats sensitive fields.",
  input: z.strictObject({ name: z.string(), password: z.string() }),
  output: z.strictObject({ ok: z.literal(true) }),
  scope: "settings:write" as const,
  anonymous: false,
  audited: true,
  sensitive: ["password", "secret"],
  annotations: WRITE,
  examples: [{ name: "x", password: "y" }],
};

const recording = defineTool({
  ...base,
  name: "test.recording",
  async handler({ name, password }, ctx) {
    await ctx.audit({ subjectType: "tool", subjectId: "test.recording", before: null, after: { name, nested: [{ password, secret: { deep: password } }] } });
    return { ok: true as const };
  },
}) as AnyTool;

const silent = defineTool({ ...base, name: "test.silent", handler: async () => ({ ok: true as const }) }) as AnyTool;

function executor(): Executor {
  const { config, database, collaborators, log, now } = server.runtime;
  return new Executor({ config, database, registry: new Registry([recording, silent]), collaborators, log, now });
}

const caller = { kind: "system" as const, actor: "system:test", scopes: new Set(["*"]) };

describe("sensitive tool fields", () => {
  it("are redacted at any depth of a snapshot the handler records", async () => {
    await executor().invoke({ name: "test.recording", input: { name: "Mette", password: "hemmeligt kodeord" }, caller, door: "system" });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "test.recording", after: { name: "Mette", nested: [{ password: "[redacted]", secret: "[redacted]" }] } });
    expect(JSON.stringify(entry)).not.toContain("hemmeligt");
  });

  it("are redacted in the input the executor records for a handler that recorded nothing", async () => {
    await executor().invoke({ name: "test.silent", input: { name: "Jonas", password: "også hemmeligt" }, caller, door: "system" });
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "test.silent", after: { input: { name: "Jonas", password: "[redacted]" } } });
    expect(JSON.stringify(entry)).not.toContain("hemmeligt");
  });
});
