// "Mine ordrer" without JavaScript: a signed-in shopper sees an order's address and payments, changes the address and
// cancels it (refund to the original method or as store credit) through plain forms; refusals are shown in Danish on
// the page and change nothing; another customer's order stays out of reach.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/server.ts";
import { expectHtmlPage, expectRedirect, WebClient } from "../support/web.ts";
import { createCustomer, createOrder, orderState, sessionFor } from "../tools/orders/fixtures.ts";

const { server } = useServer();
const prisma = () => server.runtime.database.prisma;
let n = 0;

async function signedIn(status: string) {
  const customer = await createCustomer(server, { email: `mine-ordrer-${++n}@example.dk`, name: "Mette Hansen" });
  const order = await createOrder(server, { status, email: customer.email, userId: customer.id });
  const client = new WebClient(server);
  const [name, value] = (await sessionFor(server, customer.id)).split("=");
  client.cookies.set(name!, value!);
  return { customer, order, client };
}

describe("Mine ordrer", () => {
  it("shows the order's lines, address and payments with the forms for an unshipped order", async () => {
    const { order, client } = await signedIn("paid");
    const page = await client.get(`/orders/${order.id}`);
    expectHtmlPage(page);
    expect(page.html).toContain(order.shippingAddress);
    expect(page.html).toContain("Betalinger");
    expect(page.html).toContain(`action="/orders/${order.id}/cancel"`);
    expect(page.html).toContain(`action="/orders/${order.id}/address"`);
    expect(page.html).toContain('name="refundAccount"');
  });

  it("offers an unpaid order's own payment link", async () => {
    const { order, client } = await signedIn("pending_payment");
    const page = await client.get(`/orders/${order.id}`);
    const link = /href="(\/orders\/[\w-]+\/pay\?token=[\w-]+)">Betal nu</.exec(page.html)?.[1];
    expect(link).toBeDefined();
    const pay = await client.get(link!);
    expectHtmlPage(pay);
    expect(pay.html).toContain("afventer betaling");
    const paid = await signedIn("paid");
    const paidPage = await paid.client.get(`/orders/${paid.order.id}`);
    expectHtmlPage(paidPage);
    expect(paidPage.html).not.toContain("Betal nu");
  });

  it("changes the address, and shows a wrong postal code again with the reason, writing nothing", async () => {
    const { order, client } = await signedIn("processing");
    await client.get(`/orders/${order.id}`);
    const before = await orderState(server, order.id);
    const wrong = await client.post(`/orders/${order.id}/address`, { name: "Mette Hansen", address: "Vestergade 10", zip: "9999", city: "Odense C" });
    expectHtmlPage(wrong, 422);
    expect(wrong.html).toContain("Postnummer og by passer ikke sammen");
    expect(wrong.html).toContain('value="Vestergade 10"');
    expect(await orderState(server, order.id)).toEqual(before);
    expectRedirect(await client.post(`/orders/${order.id}/address`, { name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "odense c" }), `/orders/${order.id}?notice=address-changed`);
    const after = await client.get(`/orders/${order.id}?notice=address-changed`);
    expect(after.html).toContain("Leveringsadressen er ændret.");
    expect(after.html).toContain("5000 Odense C");
  });

  it("cancels a paid order as store credit with a reason from the list; a shipped order offers no forms and refuses a forged post", async () => {
    const { order, client, customer } = await signedIn("paid");
    await client.get(`/orders/${order.id}`);
    expectRedirect(await client.post(`/orders/${order.id}/cancel`, { reason: "mistake", refundTo: "store_credit" }), `/orders/${order.id}?notice=order-cancelled`);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ status: "cancelled", cancelReason: "Bestilt ved en fejl", refundedDkk: order.totalDkk });
    expect(await prisma().giftCard.findFirst({ where: { customerEmail: customer.email } })).toMatchObject({ source: "store_credit", balanceDkk: order.totalDkk });
    const page = await client.get(`/orders/${order.id}?notice=order-cancelled`);
    expect(page.html).toContain("Ordren er annulleret.");
    expect(page.html).toContain("Tilgodebevis");
    expect(page.html).not.toContain(`action="/orders/${order.id}/cancel"`);

    const shipped = await signedIn("shipped");
    const shippedPage = await shipped.client.get(`/orders/${shipped.order.id}`);
    expect(shippedPage.html).not.toContain(`action="/orders/${shipped.order.id}/cancel"`);
    await shipped.client.get("/account");
    const before = await orderState(server, shipped.order.id);
    const refused = await shipped.client.post(`/orders/${shipped.order.id}/cancel`, { reason: "regret" });
    expectHtmlPage(refused, 422);
    expect(refused.html).toContain("Ordren kan ikke længere annulleres");
    expect(await orderState(server, shipped.order.id)).toEqual(before);
  });

  it("answers 404 for another customer's order, and asks a visitor to sign in", async () => {
    const { client } = await signedIn("paid");
    const other = await signedIn("paid");
    await client.get("/account");
    expectHtmlPage(await client.get(`/orders/${other.order.id}`), 404);
    expectHtmlPage(await client.post(`/orders/${other.order.id}/cancel`, { reason: "regret" }), 404);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: other.order.id } })).status).toBe("paid");
    const visitor = new WebClient(server);
    await visitor.get("/");
    expect((await visitor.get(`/orders/${other.order.id}`)).html).toContain("Log ind med din e-mail");
  });
});
