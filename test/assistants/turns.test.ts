// Turns in worker threads against a scripted OpenAI-compatible server: the worker asks the main thread to validate and
// run each tool call and to store the answer, streams the chunks back in order, stops on abort, and a worker that dies
// under a turn ends it as failed while the next turn gets a new worker.
import type { UIMessage, UIMessageChunk } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/assistants/assistant-profiles.ts";
import type { ToolDefinition, TurnHost, TurnSpec } from "../../src/assistants/turns/tool-loop.ts";
import { TurnWorkers } from "../../src/assistants/turns/runners.ts";
import { createLogger } from "../../src/core/log.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";
import { waitFor } from "../support/wait.ts";

const SEARCH: ToolDefinition = {
  name: "products_search",
  description: "Search the catalogue.",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false },
};

let fake: FakeOpenAI;
let workers: TurnWorkers;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  const model = { openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiModel: "fake", openaiApiStyle: "chat" as const };
  workers = new TurnWorkers(1, () => ({ model, tools: [SEARCH], approvalSecret: new Uint8Array(32) }), createLogger("silent"));
});
afterAll(async () => {
  await workers.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.tokenDelayMs = 0;
});

const spec = (text: string): TurnSpec => ({
  instructions: "Du er en hjælpsom assistent.",
  messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
  tools: [SEARCH.name],
  approvals: [],
  limits: LIMITS,
});

/** A host that records what the worker asked, answering tool calls with `output`. */
function recordingHost(output: unknown = { items: [{ slug: "aviator" }] }) {
  const asked: string[] = [];
  const chunks: UIMessageChunk[] = [];
  let stored: UIMessage | undefined;
  const host: TurnHost = {
    validate: async (tool, input) => (asked.push(`validate ${tool} ${JSON.stringify(input)}`), { success: true, value: input }),
    call: async (tool, input) => (asked.push(`call ${tool} ${JSON.stringify(input)}`), { ok: true, output }),
    chunk: (chunk) => chunks.push(chunk),
    end: async (message) => {
      asked.push("end");
      stored = message;
    },
  };
  return { host, asked, chunks, stored: () => stored };
}

describe("turn workers", () => {
  it("runs a tool call through the main thread's host and streams the answer back in order", async () => {
    fake.on("aviator").callTool("products_search", { q: "aviator" }).say("Vi har aviator i tre farver.");
    const { host, asked, chunks, stored } = recordingHost();
    const report = await workers.run(spec("aviator?"), host, new AbortController().signal);

    expect(report).toMatchObject({ steps: 2, finishReason: "stop" });
    expect(report.failure).toBeUndefined();
    expect(asked).toEqual([`validate products_search {"q":"aviator"}`, `call products_search {"q":"aviator"}`, "end"]);
    expect(chunks.map((chunk) => chunk.type)).toEqual(expect.arrayContaining(["start", "tool-input-available", "tool-output-available", "text-delta", "finish"]));
    expect(chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join("")).toBe("Vi har aviator i tre farver.");
    expect(fake.requests[1]!.toolResults[0]!.content).toBe(JSON.stringify({ items: [{ slug: "aviator" }] }));
    expect(stored()!.parts).toContainEqual(expect.objectContaining({ type: "text", text: "Vi har aviator i tre farver." }));
  });

  it("gives the model the host's refusal as the tool's error, and a refused input is never called", async () => {
    fake.on("nej").callTool("products_search", { q: "x" }).say("Det gik ikke.");
    const { host, asked } = recordingHost();
    const refusing: TurnHost = { ...host, call: async () => ({ ok: false, problem: '{"status":403,"code":"forbidden"}' }) };
    await workers.run(spec("nej"), refusing, new AbortController().signal);
    expect(JSON.parse(fake.requests[1]!.toolResults[0]!.content)).toEqual({ error: '{"status":403,"code":"forbidden"}' });

    fake.reset();
    fake.on("ugyldig").callTool("products_search", { q: 7 }).say("Forkert input.");
    const invalid: TurnHost = { ...host, validate: async () => ({ success: false, message: "q must be a string" }) };
    await workers.run(spec("ugyldig"), invalid, new AbortController().signal);
    expect(asked.filter((line) => line.startsWith("call"))).toEqual([]);
    expect(fake.requests[1]!.toolResults[0]!.content).toContain("q must be a string");
  });

  it("stops the model when the turn is aborted", async () => {
    fake.tokenDelayMs = 50;
    fake.on("langsom").say(Array.from({ length: 100 }, (_, i) => `ord${i}`).join(" "));
    const { host, chunks } = recordingHost();
    const controller = new AbortController();
    const running = workers.run(spec("langsom"), host, controller.signal);
    await waitFor(() => chunks.some((chunk) => chunk.type === "text-delta"));
    controller.abort(new Error("aborted by the client"));
    const report = await running;
    expect(report.broken).toBeUndefined();
    expect(chunks.at(-1)).toMatchObject({ type: "abort" });
    await waitFor(() => fake.requests[0]!.aborted);
  });

  it("ends a turn as failed when its worker dies, and runs the next turn on a new worker", async () => {
    const log = createLogger("silent");
    const model = { openaiApiKey: "sk-fake", openaiBaseUrl: fake.url, openaiModel: "fake", openaiApiStyle: "chat" as const };
    const doomed = new TurnWorkers(1, () => ({ model, tools: [SEARCH], approvalSecret: new Uint8Array(32) }), log);
    fake.tokenDelayMs = 50;
    fake.on("langsom").say(Array.from({ length: 100 }, (_, i) => `ord${i}`).join(" "));
    const { host, chunks } = recordingHost();
    const running = doomed.run(spec("langsom"), host, new AbortController().signal);
    await waitFor(() => chunks.some((chunk) => chunk.type === "text-delta"));
    await (doomed as unknown as { threads: Array<{ worker: { terminate(): Promise<number> } }> }).threads[0]!.worker.terminate();
    expect(await running).toMatchObject({ broken: "The assistant failed to answer; try again." });

    fake.tokenDelayMs = 0;
    fake.on("igen").say("Her er jeg igen.");
    const again = recordingHost();
    expect((await doomed.run(spec("igen"), again.host, new AbortController().signal)).broken).toBeUndefined();
    expect(again.chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join("")).toBe("Her er jeg igen.");
    await doomed.close();
    expect(await doomed.run(spec("igen"), again.host, new AbortController().signal)).toMatchObject({ broken: expect.any(String) });
  });
});
