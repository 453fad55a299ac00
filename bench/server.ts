// The shop server as the benchmark runs it: a child process on 127.0.0.1 that prints its port when ready.
import type { AddressInfo } from "node:net";
import { createApp } from "../src/api/app.ts";
import { createRuntime } from "../src/runtime.ts";

const runtime = await createRuntime();
const server = createApp(runtime).listen(0, "127.0.0.1", () => {
  console.log(`READY ${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => {
  server.close();
  void runtime.close().then(() => process.exit(0));
});
