// Stock AI SDK clients on both transports: AbstractChat over the shop's SocketChatTransport and over DefaultChatTransport
// (HTTP SSE), including the admin approval round trip; and the "assistant not configured" answer of a server without a key.
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { SocketChatTransport } from "../../src/web/client/socket-chat-transport.ts";
import { connect, getJson, send, socketTransport, TestChat, toolParts } from "../support/chat.ts";
import { fakeModel } from "../support/fake-model.ts";
import { startServer, useServer } from "../support/server.ts";
import { newSession, plainProducts } from "../support/session.ts";
import { waitFor } from "../support/wait.ts";

const fake = fakeModel();
const transports: SocketChatTransport[] = [];

const { server } = useServer({ start: { model: fake.model } });
afterAll(async () => {
  for (const transport of transports) transport.close();
});
beforeEach(() => fake.reset());

function transport(assistant: string, who: { cookie?: string; token?: string }) {
  const made = socketTransport(server, assistant, who);
  transports.push(made);
  return made;
}

describe("AbstractChat over SocketChatTransport", () => {
  it("chats with the storefront assistant, then lists and reopens the chat", async () => {
    const product = (await plainProducts(server)).at(-1)!;
    fake.on("brille").callTool("products_get", { slug: product.slug }).say((req) => `Den koster ${req.lastToolResult<{ priceDkk: number }>()!.priceDkk} øre.`);
    const cookie = await newSession(server);
    const socket = transport("storefront", { cookie });
    const chat = new TestChat({ id: "t-socket", transport: socket });
    await chat.sendMessage({ text: `Hvad koster brillen ${product.slug}?` });
    expect(chat.status).toBe("ready");
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(toolParts(chat.messages[1])).toMatchObject([{ name: "products_get", state: "output-available" }]);
    expect(chat.messages[1]!.parts.at(-1)).toMatchObject({ type: "text", text: `Den koster ${product.priceDkk} øre.` });

    expect(await socket.listChats()).toMatchObject({ available: true, chats: [{ id: "t-socket" }] });
    const reopened = await socket.loadChat("t-socket");
    expect(reopened!.messages.map((m) => m.id)).toEqual(chat.messages.map((m) => m.id));
    expect(await socket.loadChat("nobodys-chat")).toBeNull();
  });

  it("rejects listChats at once with the server's code when the handshake is refused", async () => {
    const started = performance.now();
    await expect(transport("admin", { token: "shop_nonsense_xxxxxxxxxxxxxxxxxxxxxxxx" }).listChats()).rejects.toMatchObject({ code: "unauthorized" });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("runs the admin approval round trip with addToolApprovalResponse and sendAutomaticallyWhen", async () => {
    const product = (await plainProducts(server)).at(0)!;
    fake.on("slet").callTool("products_delete", { slug: product.slug, confirm: true }).say("Slettet.");
    const token = await server.key("products:write");
    const chat = new TestChat({ id: "t-approve", transport: transport("admin", { token }), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await chat.sendMessage({ text: `slet ${product.slug}` });
    const [pending] = toolParts(chat.messages[1]);
    expect(pending).toMatchObject({ name: "products_delete", state: "approval-requested" });
    await chat.addToolApprovalResponse({ id: pending!.approval!.id, approved: true });
    await waitFor(() => chat.status === "ready" && toolParts(chat.messages[1])[0]?.state === "output-available");
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(chat.messages[1]!.parts.at(-1)).toMatchObject({ type: "text", text: "Slettet." });
    expect((await server.prisma.product.findUniqueOrThrow({ where: { id: product.id } })).deletedAt).toBeInstanceOf(Date);

    // A page reloaded right after the approval reopens the chat and resumes: the replay of the continuation rebuilds
    // the whole answer (the tool call with its approval, then the output and the text), on both transports.
    const saved = (await transport("admin", { token }).loadChat("t-approve"))!;
    const reopened = new TestChat({ id: "t-approve", messages: saved.messages, transport: transport("admin", { token }) });
    await reopened.resumeStream();
    expect(reopened.error).toBeUndefined();
    expect(reopened.messages).toEqual(saved.messages);
    const overHttp = new TestChat({
      id: "t-approve",
      messages: saved.messages,
      transport: new DefaultChatTransport({ api: `${server.url}/api/v1/chat/admin`, headers: { authorization: `Bearer ${token}` } }),
    });
    await overHttp.resumeStream();
    expect(overHttp.error).toBeUndefined();
    expect(overHttp.messages).toEqual(saved.messages);
  });
});

describe("AbstractChat over DefaultChatTransport (HTTP, server-sent events)", () => {
  it("streams a storefront turn with the session cookie and an admin turn with a Bearer key", async () => {
    fake.on("hej").say("Hej fra HTTP.");
    const cookie = await newSession(server);
    const shop = new TestChat({ id: "t-http", transport: new DefaultChatTransport({ api: `${server.url}/api/v1/chat/storefront`, headers: { cookie } }) });
    await shop.sendMessage({ text: "hej" });
    expect(shop.error).toBeUndefined();
    expect(shop.messages[1]!.parts.at(-1)).toMatchObject({ type: "text", text: "Hej fra HTTP." });

    const token = await server.key("catalog:read");
    const admin = new TestChat({ id: "t-http", transport: new DefaultChatTransport({ api: `${server.url}/api/v1/chat/admin`, headers: { authorization: `Bearer ${token}` } }) });
    await admin.sendMessage({ text: "hej" });
    expect(admin.messages[1]!.parts.at(-1)).toMatchObject({ type: "text", text: "Hej fra HTTP." });
    const listed = await getJson(server, "/api/v1/chat/admin", { authorization: `Bearer ${token}` });
    expect(listed.body.result.chats.map((c) => c.id)).toEqual(["t-http"]);
  });

  it("answers with the UI message stream headers, and with problems before streaming", async () => {
    fake.on("hej").say("Hej.");
    const cookie = await newSession(server);
    const body = JSON.stringify({ id: "t-raw", trigger: "submit-message", messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "hej" }] }] });
    const ok = await fetch(`${server.url}/api/v1/chat/storefront`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body });
    expect(ok.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(ok.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const events = (await ok.text()).trim().split("\n\n");
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(events[0]!.slice(6))).toMatchObject({ type: "start" });

    const anonymous = await fetch(`${server.url}/api/v1/chat/storefront`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 401, code: "unauthorized" });
    const badBearer = await fetch(`${server.url}/api/v1/chat/admin`, { method: "POST", headers: { authorization: "Basic x", "content-type": "application/json" }, body });
    expect(badBearer.status).toBe(401);
    const unknown = await fetch(`${server.url}/api/v1/chat/support`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body });
    expect(unknown.status).toBe(404);
    const invalid = await fetch(`${server.url}/api/v1/chat/storefront`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ id: "t-raw" }) });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: "invalid_input" });
  });
});

describe("without OPENAI_API_KEY", () => {
  it("answers 'assistant not configured' on both transports while the rest of the shop works", async () => {
    const bare = await startServer({ openaiApiKey: undefined });
    try {
      const cookie = await newSession(bare);
      const socket = await connect(bare, "storefront", { cookie });
      const turn = await send(socket, "t-none", "hej");
      socket.close();
      expect(turn).toMatchObject({ outcome: "error", error: { code: "not_configured", errorText: expect.stringMatching(/^assistant not configured/) } });
      const http = await fetch(`${bare.url}/api/v1/chat/storefront`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ id: "t-none", messages: [{ id: "m", role: "user", parts: [{ type: "text", text: "hej" }] }] }),
      });
      expect(http.status).toBe(503);
      expect(await http.json()).toMatchObject({ code: "not_configured", detail: expect.stringMatching(/^assistant not configured/) });
      const status = await getJson(bare, "/api/v1/chat/storefront", { cookie });
      expect(status.body.result).toMatchObject({ available: false, code: "not_configured" });
      expect((await bare.call("products.search", { limit: 1 })).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
