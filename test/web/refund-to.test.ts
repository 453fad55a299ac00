// "Refunder til" on the pages, without JavaScript: the shopper's cancel and return forms (Mine ordrer) and the admin's
// cancel and return-receipt forms send the money to the original payment, store credit or a gift card named by its
// code; a card chosen without a code, or an unknown one, is shown in Danish at the form and changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../support/admin.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";
import { createCustomer, createOrder, orderState, sessionFor } from "../tools/orders/fixtures.ts";
import { openReturn, shippedOrder } from "../tools/returns/fixtures.ts";

const { server } = useServer();
const prisma = () => server.prisma;
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "refusion@nordlys.dk");
});
let n = 0;

async function signedIn(status: string, delivered?: number) {
  const customer = await createCustomer(server, { email: `refunder-til-${++n}@example.dk`, name: "Mette Hansen" });
  const seed = { email: customer.email, userId: customer.id };
  const order = delivered === undefined ? await createOrder(server, { status, ...seed }) : await shippedOrder(server, { ...seed, deliveredDaysAgo: delivered, quantities: [1, 1] });
  const client = new WebClient(server);
  const [name, value] = (await sessionFor(server, customer.id)).split("=");
  client.cookies.set(name!, value!);
  return { customer, order, client };
}

async function card(amountDkk = 1000) {
  const key = await server.key("giftcards:write");
  return expectOk<{ code: string }>(server, "giftcards.issue", await server.call("giftcards.issue", { amountDkk }, { key })).code;
}

describe("Refunder til", () => {
  it("lets a shopper cancel onto their own gift card, and says so when the code is missing or unknown", async () => {
    const { order, client } = await signedIn("paid");
    const page = await client.get(`/orders/${order.id}`);
    expect(page.html).toContain("Refunder til");
    expect(page.html).toContain('value="gift_card"');
    expect(page.html).toContain('name="refundCard"');
    const before = await orderState(server, order.id);
    const missing = await client.post(`/orders/${order.id}/cancel`, { reason: "regret", refundTo: "gift_card", refundCard: "" });
    expectHtmlPage(missing, 400);
    expect(missing.html).toContain("Skriv koden fra dit gavekort");
    const unknown = await client.post(`/orders/${order.id}/cancel`, { reason: "regret", refundTo: "gift_card", refundCard: "ABCD-EFGH-JKLM-NPQR" });
    expectHtmlPage(unknown, 422);
    expect(unknown.html).toContain("Vi kender ikke det gavekort");
    expect(await orderState(server, order.id)).toEqual(before);
    const code = await card(1000);
    expectRedirect(await client.post(`/orders/${order.id}/cancel`, { reason: "regret", refundTo: "gift_card", refundCard: code }), `/orders/${order.id}?notice=order-cancelled`);
    expect((await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk).toBe(1000n + order.totalDkk);
  });

  it("keeps the destination a shopper's return asks for, and the admin receives it there by default", async () => {
    const { order, client } = await signedIn("delivered", 2);
    const line = order.items[0]!;
    expect((await client.get(`/orders/${order.id}`)).html).toContain("Refunder til");
    expectRedirect(await client.post(`/orders/${order.id}/return`, { orderItemId: line.id, quantity: "1", kind: "withdrawal", reason: "Passede ikke", refundTo: "store_credit" }), /notice=return-requested/);
    const ret = await prisma().returnRequest.findFirstOrThrow({ where: { orderId: order.id } });
    expect(ret.refundTo).toBe("store_credit");
    const key = await server.key("returns:write");
    expectOk(server, "returns.approve", await server.call("returns.approve", { returnId: ret.id }, { key }));
    const page = await owner.get(`/admin/returns/${ret.id}`);
    expect(page.html).toContain("Som kunden bad om: tilgodebevis");
    expect(page.html).toContain("Refunderes til");
    const received = await owner.submit(`/admin/returns/${ret.id}`, `/admin/returns/${ret.id}/receive`, { refundTo: "asked", restock: "on" });
    expect(received.status).toBe(303);
    expect(await prisma().giftCard.findFirstOrThrow({ where: { orderId: order.id } })).toMatchObject({ source: "store_credit", balanceDkk: line.unitPriceDkk });
    expect(await prisma().returnRequest.findUniqueOrThrow({ where: { id: ret.id } })).toMatchObject({ status: "refunded", refundTo: "store_credit" });
  });

  it("lets staff receive a return onto a gift card and cancel an order onto one", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2, quantities: [1, 1] });
    const key = await server.key("returns:write");
    const ret = await openReturn(server, key, order, { quantities: [1, 0], approve: true });
    const code = await card(200);
    const received = await owner.submit(`/admin/returns/${ret.returnId}`, `/admin/returns/${ret.returnId}/receive`, { refundTo: "gift_card", refundCard: code });
    expect(received.status).toBe(303);
    expect((await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk).toBe(200n + order.items[0]!.unitPriceDkk);
    expect((await owner.get(`/admin/returns/${ret.returnId}`)).html).toContain(`Refunderet til`);

    const paid = await createOrder(server, { status: "paid" });
    const form = await owner.get(`/admin/orders/${paid.id}`);
    expect(form.html).toContain('name="refundCard"');
    const cancelled = await owner.submit(`/admin/orders/${paid.id}`, `/admin/orders/${paid.id}/cancel`, { reason: "Kunden fortrød", refundTo: "gift_card", refundCard: code });
    expect(cancelled.status).toBe(303);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: paid.id } })).toMatchObject({ status: "cancelled", refundedDkk: paid.totalDkk });
    expect((await prisma().giftCard.findUniqueOrThrow({ where: { code } })).balanceDkk).toBe(200n + order.items[0]!.unitPriceDkk + paid.totalDkk);
  });
});
