// How a benchmarked shop server runs: as `npm start` runs it, read from package.json so the two cannot drift (its
// environment assignments and its Node options, if it has any), and with BENCH_PROFILE=<dir> a V8 CPU profile of the
// server written to that directory (node --cpu-prof).
import fs from "node:fs";

const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: { start: string } };

/** The start script's words: `NAME=value …` assignments, `node`, its options, the script last. */
const WORDS = pkg.scripts.start.trim().split(/\s+/);
const NODE = WORDS.indexOf("node");
if (NODE < 0) throw new Error(`The start script does not run node: ${pkg.scripts.start}`);

/** The environment the start script sets (`NAME=value` words before `node`). */
export function serverEnv(): Record<string, string> {
  return Object.fromEntries(WORDS.slice(0, NODE).map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]));
}

/** The Node options of the start script (everything between `node` and its script); spawn them before the server's script. */
export function serverNodeOptions(): string[] {
  const profiling = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  return [...WORDS.slice(NODE + 1, -1), ...profiling];
}
