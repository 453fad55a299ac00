// What a gzip-encoded cache hit costs: src/http/gzip.ts (deflated once, each response closed with its tail as a stored
// block) against zlib compressing each response whole, as a compression middleware would. Answers are product-summary
// lists as products.search returns them, in an MCP result (the JSON twice) with a request-id tail.
// `node bench/gzip.ts`; prints one row per answer size: µs per response and bytes sent.
import zlib from "node:zlib";
import { closeGzip, openGzip } from "../src/http/gzip.ts";

const COLORS = ["sort", "brun", "grøn", "blå", "grå", "guld"];

function summaries(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `cm${(1e9 + i * 7919).toString(36)}demo${i}`,
    slug: `solbrille-model-${i}`,
    name: `Solbrille model ${i} ${COLORS[i % COLORS.length]}`,
    brand: ["Nordlys", "Havblik", "Klit"][i % 3],
    priceDkk: 49_900 + ((i * 1_250) % 80_000),
    stock: (i * 37) % 120,
    featured: i % 5 === 0,
    frameColor: COLORS[i % COLORS.length],
    lensColor: COLORS[(i + 2) % COLORS.length],
    categorySlug: ["solbriller", "briller", "tilbehoer"][i % 3],
    categoryName: ["Solbriller", "Briller", "Tilbehør"][i % 3],
    firstImage: `/demo-images/solbrille-${i % 24}.webp`,
  }));
}

/** The cached part of an MCP answer (everything before the id) and the tail each response ends with. */
function mcpAnswer(count: number): { plain: Buffer; tail: Buffer } {
  const result = { items: summaries(count), total: count * 3 };
  const json = JSON.stringify(result);
  const text = JSON.stringify({ result: { content: [{ type: "text", text: json }], structuredContent: result }, jsonrpc: "2.0" });
  return { plain: Buffer.from(text.slice(0, -1)), tail: Buffer.from(`,"id":"req-${"7".repeat(12)}"}`) };
}

/** Mean µs per call of `run` over about `ms` milliseconds, after a warm-up. */
function time(run: () => unknown, ms = 600): number {
  for (let i = 0; i < 200; i++) run();
  let calls = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 50; i++) run();
    calls += 50;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / 1_000 / calls;
}

console.log("| items | plain B | stored-tail µs | B | zlib gzip L6 µs | B | zlib gzip L1 µs | B |");
console.log("|---|---|---|---|---|---|---|---|");
for (const count of [8, 24, 100]) {
  const { plain, tail } = mcpAnswer(count);
  const open = openGzip(plain);
  if (!open) throw new Error("the answer does not compress");
  const whole = Buffer.concat([plain, tail]);
  const closed = closeGzip(open, tail)!;
  if (!zlib.gunzipSync(closed).equals(whole)) throw new Error("closeGzip does not decode to the answer");
  const ours = time(() => closeGzip(open, tail));
  const level6 = time(() => zlib.gzipSync(whole));
  const level1 = time(() => zlib.gzipSync(whole, { level: 1 }));
  const row = [count, whole.length, ours.toFixed(2), closed.length, level6.toFixed(1), zlib.gzipSync(whole).length, level1.toFixed(1), zlib.gzipSync(whole, { level: 1 }).length];
  console.log(`| ${row.join(" | ")} |`);
}
