// The shop server as the benchmark runs it: a child process on 127.0.0.1 that prints its port when ready.
import type { AddressInfo } from "node:net";
import { createApp } from "../src/api/app.ts";
import { attachChat } from "../src/assistants/socket.ts";
import { createRuntime } from "../src/runtime.ts";

const runtime = await createRuntime();
const server = createApp(runtime).listen(0, "127.0.0.1", () => {
  console.log(`READY ${(server.address() as AddressInfo).port}`);
});
const chat = attachChat(server, runtime);
process.on("SIGTERM", () => {
  void chat
    .close()
    .then(() => runtime.close())
    .then(() => process.exit(0));
});
