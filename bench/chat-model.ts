// The scripted model of `npm run bench:chat`, in a process of its own: its 2,500 token writes a second at 50 chats do
// not share an event loop with the bench's socket.io clients, whose receive times would otherwise carry the model's
// delays. Prints nothing; sends its URL over IPC, then on "timings" each request's times (absolute ms, comparable
// across processes) since the last ask.
import { startFakeOpenAI, type FakeRequest } from "../test/support/fake-openai.ts";

export interface ModelTiming {
  lastUserText: string;
  step: number;
  receivedAt: number;
  firstTokenAt?: number;
  endedAt?: number;
}

const fake = await startFakeOpenAI();
fake.tokenDelayMs = Number(process.env.BENCH_TOKEN_MS);
fake.on("bench").callTool("products_search", { q: "solbriller", limit: 5 }).say(process.env.BENCH_ANSWER!);

const absolute = (at: number | undefined) => (at === undefined ? undefined : performance.timeOrigin + at);
const timing = (request: FakeRequest): ModelTiming => ({
  lastUserText: request.lastUserText,
  step: request.step,
  receivedAt: absolute(request.receivedAt)!,
  firstTokenAt: absolute(request.firstTokenAt),
  endedAt: absolute(request.endedAt),
});

process.on("message", (message) => {
  if (message !== "timings") return;
  process.send!(fake.requests.map(timing));
  fake.requests.length = 0;
});
process.on("disconnect", () => void fake.close().then(() => process.exit(0)));
process.send!({ url: fake.url });
