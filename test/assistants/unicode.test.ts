// Chat content the database cannot hold as is (U+0000, lone surrogates): a model's answer, a tool input the model
// proposes and the person's own message are stored with U+FFFD in their place, and the turn ends normally.
import type { UIMessage } from "ai";
import type { Socket } from "socket.io-client";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { connect, getJson, send, toolParts } from "../support/chat.ts";
import { fakeModel } from "../support/fake-model.ts";
import { useServer } from "../support/server.ts";
import { newSession } from "../support/session.ts";

const fake = fakeModel();
const sockets: Socket[] = [];

const { server } = useServer({ start: { model: fake.model } });
afterAll(async () => {
  for (const socket of sockets) socket.close();
});
beforeEach(() => fake.reset());

async function shopper() {
  const cookie = await newSession(server);
  const socket = await connect(server, "storefront", { cookie });
  sockets.push(socket);
  return { cookie, socket };
}

async function stored(cookie: string, chatId: string): Promise<UIMessage[]> {
  const { status, body } = await getJson<{ result: { messages: UIMessage[] } }>(server, `/api/v1/chat/storefront/${chatId}`, { cookie });
  expect(status).toBe(200);
  return body.result.messages;
}

const textOf = (message: UIMessage | undefined) => (message?.parts ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");

describe("chat content with U+0000 or lone surrogates", () => {
  it("stores a model answer holding them with U+FFFD instead, and the turn ends normally", async () => {
    fake.on("skriv").say("før\u0000efter halv\ud800vej og \udc00slut");
    const { cookie, socket } = await shopper();
    const turn = await send(socket, "u-answer", "skriv noget");
    expect(turn.outcome).toBe("end");
    expect(turn.text).toBe("før\u0000efter halv\ud800vej og \udc00slut");
    const messages = await stored(cookie, "u-answer");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(messages[1])).toBe("før\uFFFDefter halv\uFFFDvej og \uFFFDslut");
    // The chat's hold was released: the next turn runs.
    fake.on("igen").say("Godt.");
    expect((await send(socket, "u-answer", "igen")).outcome).toBe("end");
  });

  it("keeps the tool's 400 as the result of a tool input holding U+0000, and stores the call", async () => {
    fake.on("søg").callTool("products_search", { q: "sol\u0000briller" }).say("Søgningen fejlede.");
    const { cookie, socket } = await shopper();
    const turn = await send(socket, "u-tool", "søg efter solbriller");
    expect(turn.outcome).toBe("end");
    const [call] = toolParts(turn.message);
    expect(call).toMatchObject({ name: "products_search", state: "output-error" });
    expect(JSON.parse(call!.errorText!)).toMatchObject({ status: 400, code: "invalid_input" });
    expect(JSON.parse(fake.requests[1]!.toolResults[0]!.content)).toMatchObject({ error: expect.stringContaining('"status":400') });
    const messages = await stored(cookie, "u-tool");
    expect(toolParts(messages[1])).toEqual([
      expect.objectContaining({ state: "output-error", input: expect.objectContaining({ q: "sol\uFFFDbriller" }), errorText: call!.errorText }),
    ]);
    expect(textOf(messages[1])).toBe("Søgningen fejlede.");
  });

  it("stores the person's message holding them with U+FFFD, and its title too", async () => {
    fake.on("hej").say("Hej!");
    const { cookie, socket } = await shopper();
    const turn = await send(socket, "u-user", "hej\u0000 med \ud83d dig");
    expect(turn.outcome).toBe("end");
    expect(fake.requests[0]!.lastUserText).toBe("hej\u0000 med \ud83d dig");
    const messages = await stored(cookie, "u-user");
    expect(textOf(messages[0])).toBe("hej\uFFFD med \uFFFD dig");
    expect(textOf(messages[1])).toBe("Hej!");
    const listed = await getJson(server, "/api/v1/chat/storefront", { cookie });
    expect(listed.body.result.chats).toEqual([expect.objectContaining({ id: "u-user", title: "hej\uFFFD med \uFFFD dig" })]);
  });
});
