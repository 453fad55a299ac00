// Starts the shop server: `npm start`.
import { createApp } from "./api/app.ts";
import { attachChat } from "./assistants/socket.ts";
import { createRuntime } from "./runtime.ts";
import { setupAnnouncement } from "./web/admin/pages/setup.ts";

const runtime = await createRuntime();
const app = createApp(runtime);
const server = app.listen(runtime.config.port, runtime.config.host, () => {
  const url = `http://${runtime.config.host === "0.0.0.0" ? "localhost" : runtime.config.host}:${runtime.config.port}`;
  console.log(`Shop server listening on ${url} (database: ${runtime.database.kind}, public URL: ${runtime.config.publicBaseUrl})`);
  setupAnnouncement(runtime).then(
    (text) => text && console.log(text),
    (error: unknown) => runtime.log.error("could not issue a setup link", { error: String(error) }),
  );
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
