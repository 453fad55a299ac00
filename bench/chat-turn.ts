// `npm run bench:chat-turn`: the CPU one assistant turn costs where the AI SDK runs (a turn worker), without the rest
// of the server: runTurn (src/assistants/turns/tool-loop.ts) against the scripted model of bench/chat-model.ts in its own process,
// BENCH_CONCURRENCY turns at a time, BENCH_TURNS measured after 50 to warm up. Each turn offers the storefront
// assistant's tools with its instructions and is one products_search step and a 60-token answer (BENCH_TOKENS) streamed
// at 20 ms per token (BENCH_TOKEN_MS), as in bench:chat; at 1 ms per token several tokens share a network read and a
// turn costs less. Each of BENCH_ROUNDS rounds (default 5) runs in a fresh process, and the median is the figure to
// compare, since a round moves with whatever else the machine runs.
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 60);
const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 20);
const ANSWER = Array.from({ length: TOKENS }, (_, i) => `ord${i}`).join(" ");

interface Measurement {
  cpuMsPerTurn: number;
  cpuUsPerChunk: number;
}

/** One round in this process; prints its Measurement as JSON. */
async function measure(): Promise<void> {
  const { createOpenAI } = await import("@ai-sdk/openai");
  const { runTurn } = await import("../src/assistants/turns/tool-loop.ts");
  const { PROFILES } = await import("../src/assistants/assistant-profiles.ts");
  const { toolDefinitions } = await import("../src/assistants/tools.ts");
  const { ALL_TOOLS, wireName } = await import("../src/tools/registry.ts");
  const modelProcess = spawn(process.execPath, ["bench/chat-model.ts"], { env: { ...process.env, BENCH_TOKEN_MS: String(TOKEN_MS), BENCH_ANSWER: ANSWER }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const url = await new Promise<string>((resolve) => modelProcess.once("message", (message) => resolve((message as { url: string }).url)));
  const model = createOpenAI({ apiKey: "sk-bench", baseURL: url }).chat("fake");
  // What the storefront assistant offers and tells the model, as in the server; search answers five demo-like products.
  const storefront = PROFILES.storefront;
  const offered = ALL_TOOLS.filter((tool) => storefront.offers(tool));
  const definitions = new Map(toolDefinitions(offered).map((definition) => [definition.name, definition]));
  const instructions = storefront.instructions({ publicBaseUrl: "http://127.0.0.1:3000", now: new Date(), currency: "DKK", pricesIncludeVat: true });
  const product = (i: number) => ({ slug: `aviator-solbriller-${i}`, name: `Aviator solbriller ${i}`, brand: "Nordlys", priceOre: 49_900 + i * 10_000, currency: "DKK", inStock: true, url: `http://127.0.0.1:3000/produkter/aviator-solbriller-${i}`, description: "Klassiske aviator-solbriller med polariserede glas og stel i letvægtsmetal." });
  const output = { items: Array.from({ length: 5 }, (_, i) => product(i)), total: 5 };
  let chunks = 0;
  const turn = async (i: number) => {
    const report = await runTurn(
      model,
      definitions,
      { instructions, messages: [{ id: `u${i}`, role: "user", parts: [{ type: "text", text: `bench ${i}` }] }], tools: offered.map((tool) => wireName(tool.name)), approvals: [], limits: storefront.limits },
      { validate: async (_name, value) => ({ success: true, value }), call: async () => ({ ok: true, output }), chunk: () => void chunks++, end: async () => undefined },
      new AbortController().signal,
      new Uint8Array(32),
    );
    if (report.broken || report.failure) throw new Error(`turn ${i} failed: ${report.broken ?? report.failure}`);
  };
  const run = async (turns: number) => {
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next < turns) await turn(next++); }));
  };
  await run(50);
  chunks = 0;
  const before = process.cpuUsage();
  await run(TURNS);
  const used = process.cpuUsage(before);
  const cpuMs = (used.user + used.system) / 1000;
  modelProcess.disconnect();
  console.log(JSON.stringify({ cpuMsPerTurn: cpuMs / TURNS, cpuUsPerChunk: (1000 * cpuMs) / chunks } satisfies Measurement));
}

function child(): Measurement {
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "round"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) throw new Error(`a round failed with ${result.status}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as Measurement;
}

const round = (value: number) => Math.round(value * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (process.argv[2] === "round") await measure();
else {
  const rounds: Measurement[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    rounds.push(child());
    console.error(`round ${r}: ${round(rounds.at(-1)!.cpuMsPerTurn)} ms per turn`);
  }
  console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} at the end. ${TURNS} turns, ${CONCURRENCY} at a time, each offering the storefront tools, a products_search step and a ${TOKENS}-token answer at ${TOKEN_MS} ms per token.\n`);
  console.log("| round | CPU ms per turn | µs per UI chunk |");
  console.log("|---:|---:|---:|");
  rounds.forEach((measured, r) => console.log(`| ${r + 1} | ${round(measured.cpuMsPerTurn)} | ${Math.round(measured.cpuUsPerChunk)} |`));
  console.log(`| median | ${round(median(rounds.map((m) => m.cpuMsPerTurn)))} | ${Math.round(median(rounds.map((m) => m.cpuUsPerChunk)))} |`);
}
