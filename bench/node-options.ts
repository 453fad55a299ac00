// The Node options a benchmarked shop server runs with: those of `npm start`, read from package.json so the two cannot
// drift, and with BENCH_PROFILE=<dir> a V8 CPU profile of the server written to that directory (node --cpu-prof).
import fs from "node:fs";

const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: { start: string } };

/** `--name=value` options of the start script (its `--import tsx` is added by whoever spawns the server). */
const START_OPTIONS = pkg.scripts.start.split(/\s+/).filter((word) => /^--[\w-]+=/.test(word));

export function serverNodeOptions(): string[] {
  const profiling = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  return [...START_OPTIONS, ...profiling];
}
