// Starts the shop server: `npm start`.
import { createApp } from "./api/app.ts";
import { attachChat } from "./assistants/socket.ts";
import { createRuntime } from "./runtime.ts";

const runtime = await createRuntime();
const app = createApp(runtime);
const server = app.listen(runtime.config.port, runtime.config.host, () => {
  const url = `http://${runtime.config.host === "0.0.0.0" ? "localhost" : runtime.config.host}:${runtime.config.port}`;
  console.log(`Shop server listening on ${url} (database: ${runtime.database.kind}, public URL: ${runtime.config.publicBaseUrl})`);
});
server.keepAliveTimeout = 65_000;
const chat = attachChat(server, runtime);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  runtime.log.info("shutting down", { signal });
  await chat.close();
  await runtime.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
