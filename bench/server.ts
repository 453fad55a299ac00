// The shop server as the benchmark runs it: a child process on 127.0.0.1 that prints its port when ready.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createApp } from "../src/app.ts";
import { attachChat } from "../src/assistants/socket.ts";
import { createRuntime } from "../src/runtime.ts";

const runtime = await createRuntime();
const server = http.createServer(createApp(runtime));
const chat = await attachChat(server, runtime);
server.listen(0, "127.0.0.1", () => {
  console.log(`READY ${(server.address() as AddressInfo).port}`);
});
// SIGUSR2 prints the event loop's delay since the last SIGUSR2 (how long ready work waited for the loop) and restarts it.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
process.on("SIGUSR2", () => {
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  console.log(`LOOP ${JSON.stringify({ p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) })}`);
  loop.reset();
});
process.on("SIGTERM", () => {
  void chat
    .close()
    .then(() => runtime.close())
    .then(() => process.exit(0));
});
