// Starts the shop server: `npm start` (which builds the web assets first), or `node src/main.ts` on Node 24.
// npm start sets MALLOC_MMAP_THRESHOLD_=131072: glibc then keeps its mmap threshold at 128 KiB instead of raising it
// after large blocks are freed, so the memory V8's optimising compiler takes once for PGlite's WebAssembly (peaks near
// 1 GB at a first start) goes back to the system instead of staying in malloc's arenas: ~300 instead of ~450 MB after
// a first start. Start the server another way with the same variable.
import "./node-check.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createApp } from "./app.ts";
import { answerParserErrors } from "./http/requests.ts";
import { Drain } from "./http/drain.ts";
import { attachChat } from "./assistants/socket.ts";
import { serveCommands, socketPathFor } from "./cli/channel.ts";
import { loadConfig } from "./core/config.ts";
import { jsonLine } from "./core/log.ts";
import { migrate } from "./core/migrate.ts";
import { operatorAcpFeed } from "./operator.ts";
import { checkProfile } from "./core/production.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { setupAnnouncement } from "./web/admin/pages/setup.ts";

// Every line the server prints is JSON, on stdout the two an operator looks for (listening, the setup link) whatever
// LOG_LEVEL says, on stderr the log.
let runtime: Runtime;
let app: ReturnType<typeof createApp>;
let warnings: string[];
try {
  const config = loadConfig();
  const check = checkProfile(config);
  if (check.refusals.length > 0) {
    for (const refusal of check.refusals) process.stderr.write(jsonLine("error", `cannot start: ${refusal}`, { profile: config.profile }));
    process.exit(1);
  }
  warnings = check.warnings;
  runtime = await createRuntime({ config });
  app = createApp(runtime);
} catch (error) {
  // A start-up failure (database unreachable, data directory held by another process, assets not built …) is one
  // clear line, no stack.
  process.stderr.write(jsonLine("error", `cannot start: ${error instanceof Error ? error.message : String(error)}`));
  process.exit(1);
}
for (const warning of warnings) runtime.log.warn(warning, { profile: runtime.config.profile });
// In development mail is not sent but written out: say where, so a developer finds the sign-in code (production warns above).
if (!runtime.config.smtpUrl && runtime.config.profile !== "production") {
  const outbox = path.resolve(runtime.config.dataDir, "outbox");
  process.stdout.write(jsonLine("info", `e-mails are not sent without SMTP_URL: each is written as an .eml file to ${outbox}`, { outbox }));
}

// On the embedded database this process holds the data directory: `shop …` commands run in here, through a local socket.
const lock = runtime.database.lock;
const channel = lock
  ? await serveCommands(
      {
        migrate: () => migrate(runtime.database),
        acpFeed: () => operatorAcpFeed(runtime.config, runtime.database),
        executor: () => Promise.resolve(runtime.executor),
        server: { catalogChanged: () => runtime.collaborators.catalog.reload(), signingKeys: runtime.signingKeys },
      },
      socketPathFor(runtime.config.dataDir),
    )
  : undefined;

const server = http.createServer(app);
server.keepAliveTimeout = 65_000;
answerParserErrors(server);
// Before listening, so no socket.io request meets the server without it (attaching may load the Redis adapter first).
const chat = await attachChat(server, runtime);
// After socket.io, which takes over the request listeners when it attaches; its long-polls end when the chat closes.
const drain = new Drain(server, (req) => req.url?.startsWith("/socket.io/") ?? false);
server.listen(runtime.config.port, runtime.config.host, () => {
  const { port } = server.address() as AddressInfo;
  const url = `http://${runtime.config.host === "0.0.0.0" ? "localhost" : runtime.config.host}:${port}`;
  const { kind } = runtime.database;
  process.stdout.write(jsonLine("info", `listening on ${url}`, { url, database: kind, publicBaseUrl: runtime.config.publicBaseUrl, profile: runtime.config.profile }));
  setupAnnouncement(runtime).then(
    (setup) => setup && process.stdout.write(jsonLine("info", setup.message, { setupUrl: setup.url })),
    (error: unknown) => runtime.log.error("could not issue a setup link", { error: String(error) }),
  );
});
if (lock && channel) lock.advertise(channel.path);

/**
 * Drains, then closes: /readyz turns 503 and no connection is accepted any more, requests in flight and running chat
 * turns finish (at most SHUTDOWN_TIMEOUT_MS), chat sockets are closed (their clients reconnect to another process).
 * A second signal stops at once.
 */
let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    runtime.log.warn("stopping at once", { signal });
    process.exit(1);
  }
  stopping = true;
  runtime.draining = true;
  const timeoutMs = runtime.config.shutdownTimeoutMs;
  runtime.log.info("draining", { signal, timeoutMs });
  const drained = await drain.drain(timeoutMs, () => runtime.chat.streams.running === 0);
  if (!drained) runtime.log.warn("drain timed out: cutting off the requests and chat turns still running", { timeoutMs });
  server.closeAllConnections();
  await chat.close();
  await channel?.close();
  await runtime.close();
  runtime.log.info("stopped", { signal });
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
