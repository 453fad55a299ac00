// What a server process gives back once it has started: memory that only start-up needed (about 50 MB of an idle server).
import { stop as stopEsbuild } from "esbuild";

/**
 * Called once the server is ready, before it listens:
 * - esbuild's synchronous API (the asset bundles, tsx's transforms) leaves a worker thread with a V8 heap of its own and
 *   an esbuild process running; esbuild starts them again if a later import needs a transform.
 * - One memory-reducing full GC (with --expose-gc, as npm start runs; a no-op without it). Start-up grows V8's young
 *   generation to the 2 × 16 MB that --max-semi-space-size allows for request throughput, and leaves its garbage in the
 *   old generation; this GC shrinks the young generation back (load grows it again) and returns the freed pages.
 */
export async function releaseStartupMemory(): Promise<void> {
  await stopEsbuild();
  globalThis.gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
}
