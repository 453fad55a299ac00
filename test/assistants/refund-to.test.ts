// Both assistants pass a refund destination through, behind the approval button, against the scripted model: the
// shopper asks a return's refund onto their own gift card, staff cancel an order onto one and receive a return as store
// credit. The money goes where asked only once approved.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { answerApprovals, connect, send, toolParts } from "../support/chat.ts";
import { expectOk } from "../support/expect.ts";
import { fakeModel } from "../support/fake-model.ts";
import { useServer } from "../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../tools/orders/fixtures.ts";
import { openReturn, shippedOrder } from "../tools/returns/fixtures.ts";

const fake = fakeModel();
const sockets: Socket[] = [];
const { server } = useServer({ config: { publicBaseUrl: "https://shop.example.dk" }, start: { model: fake.model } });
afterAll(async () => {
  for (const socket of sockets) socket.close();
});
beforeEach(() => fake.reset());
const prisma = () => server.prisma;

async function card(amountDkk: number) {
  const key = await server.key("giftcards:write");
  return expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key })).code;
}

describe("refund destinations through the assistants", () => {
  it("storefront: a return asked onto the shopper's gift card is kept with the return once approved", async () => {
    const customer = await createCustomer(server, { email: "chat-refund@example.dk", name: "Mette Hansen" });
    const socket = await connect(server, "storefront", { cookie: await sessionFor(server, customer.id) });
    sockets.push(socket);
    const order = await shippedOrder(server, { deliveredDaysAgo: 3, email: customer.email, userId: customer.id, quantities: [1] });
    const code = await card(300);
    fake.on("returnere").callTool("returns_request", { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Fortrudt", refundTo: code }).say("Returen er anmodet.");
    const asked = await send(socket, "chat-refund-card", "Jeg vil returnere varen, pengene på mit gavekort");
    expect(toolParts(asked.message)).toMatchObject([{ name: "returns_request", state: "approval-requested", input: { refundTo: code } }]);
    expect(await prisma().returnRequest.count({ where: { orderId: order.id } })).toBe(0);
    const done = await send(socket, "chat-refund-card", [answerApprovals(asked.message!, true)]);
    expect(done.text).toBe("Returen er anmodet.");
    const stored = await prisma().giftCard.findUniqueOrThrow({ where: { code } });
    expect(await prisma().returnRequest.findFirstOrThrow({ where: { orderId: order.id } })).toMatchObject({ refundTo: "gift_card", refundGiftCardId: stored.id });
  });

  it("admin: cancels onto a named card and receives a return as store credit, each after approval", async () => {
    const token = await server.key("orders:write", "orders:read", "returns:write", "returns:read");
    const socket = await connect(server, "admin", { token });
    sockets.push(socket);
    const paid = await createOrder(server, { status: "paid" });
    const code = await card(100);
    fake.on("annuller").callTool("orders_cancel", { orderId: paid.id, reason: "Kunden fortrød", refundTo: code }).say("Annulleret.");
    const asked = await send(socket, "a-refund-cancel", "annuller ordren til kundens gavekort");
    expect(toolParts(asked.message)).toMatchObject([{ name: "orders_cancel", state: "approval-requested" }]);
    expect((await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk).toBe(100n);
    await send(socket, "a-refund-cancel", [answerApprovals(asked.message!, true)]);
    expect((await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk).toBe(100n + paid.totalDkk);

    const order = await shippedOrder(server, { deliveredDaysAgo: 2, quantities: [1, 1] });
    const ret = await openReturn(server, await server.key("returns:write"), order, { quantities: [1, 0], approve: true });
    fake.on("modtag").callTool("returns_receive", { returnId: ret.returnId, refundTo: "store_credit" }).say("Modtaget.");
    const receive = await send(socket, "a-refund-receive", "modtag returen som tilgodebevis");
    await send(socket, "a-refund-receive", [answerApprovals(receive.message!, true)]);
    expect(await prisma().giftCard.findFirstOrThrow({ where: { orderId: order.id } })).toMatchObject({ source: "store_credit", balanceDkk: order.items[0]!.unitPriceDkk });
  });
});
