// Starts the shop server: `npm start` (which builds the web assets first), or `node src/main.ts` on Node 24.
// npm start sets MALLOC_MMAP_THRESHOLD_=131072: glibc then keeps its mmap threshold at 128 KiB instead of raising it
// after large blocks are freed, so the memory V8's optimising compiler takes once for PGlite's WebAssembly (peaks near
// 1 GB at a first start) goes back to the system instead of staying in malloc's arenas: ~300 instead of ~450 MB after
// a first start. Start the server another way with the same variable.
import "./node-check.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.ts";
import { answerParserErrors } from "./http/requests.ts";
import { attachChat } from "./assistants/socket.ts";
import { serveCommands, socketPathFor } from "./cli/channel.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { setupAnnouncement } from "./web/admin/pages/setup.ts";

let runtime: Runtime;
let app: ReturnType<typeof createApp>;
try {
  runtime = await createRuntime();
  app = createApp(runtime);
} catch (error) {
  // A start-up failure (database unreachable, data directory held by another process, assets not built …) is one
  // clear line, no stack.
  console.error(`shop: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

// On the embedded database this process holds the data directory: `shop …` commands run in here, through a local socket.
const lock = runtime.database.lock;
const channel = lock
  ? await serveCommands(
      {
        database: runtime.database,
        executor: () => Promise.resolve(runtime.executor),
        server: { catalogChanged: () => runtime.services.catalog.reload() },
      },
      socketPathFor(runtime.config.dataDir),
    )
  : undefined;

const server = http.createServer(app);
server.keepAliveTimeout = 65_000;
answerParserErrors(server);
// Before listening, so no socket.io request meets the server without it (attaching may load the Redis adapter first).
const chat = await attachChat(server, runtime);
server.listen(runtime.config.port, runtime.config.host, () => {
  const { port } = server.address() as AddressInfo;
  const url = `http://${runtime.config.host === "0.0.0.0" ? "localhost" : runtime.config.host}:${port}`;
  console.log(`Shop server listening on ${url} (database: ${runtime.database.kind}, public URL: ${runtime.config.publicBaseUrl})`);
  setupAnnouncement(runtime).then(
    (text) => text && console.log(text),
    (error: unknown) => runtime.log.error("could not issue a setup link", { error: String(error) }),
  );
});
if (lock && channel) lock.advertise(channel.path);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  runtime.log.info("shutting down", { signal });
  await chat.close();
  await channel?.close();
  await runtime.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
