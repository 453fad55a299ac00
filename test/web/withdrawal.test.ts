// /fortryd without JavaScript: plain form posts with CSRF, step 1 (order, e-mail, name), step 2 "Bekræft fortrydelse",
// then a receipt page that reads the same whether or not the order matched; the links from the footer, the order page
// and the order e-mails.
import { beforeEach, describe, expect, it } from "vitest";
import type { MailMessage, Mailer } from "../../src/core/mail.ts";
import { sendOrderConfirmation, sendShipped } from "../../src/tools/orders/emails.ts";
import { useServer } from "../support/server.ts";
import { expectHtmlPage, WebClient } from "../support/web.ts";
import { captureMail, createCustomer, sessionFor } from "../tools/orders/fixtures.ts";
import { shippedOrder } from "../tools/returns/fixtures.ts";

const { server } = useServer();
const prisma = () => server.prisma;
const settle = () => server.runtime.background.idle();
/** The receipt page without what differs per request (time, token). */
const shape = (html: string) => html.replace(/<strong class="withdrawal-received">[^<]*</, "").replace(/name="_csrf" value="[^"]*"/g, "").replace(/#\d+/g, "#N").replace(/[\w.-]+@example\.dk/g, "E");

beforeEach(async () => {
  await prisma().loginThrottle.deleteMany();
});

async function declare(client: WebClient, fields: Record<string, string>) {
  await client.get("/fortryd");
  const review = await client.post("/fortryd", fields);
  expectHtmlPage(review);
  expect(review.html).toContain("Bekræft fortrydelse");
  return client.post("/fortryd/bekraeft", fields);
}

describe("/fortryd", () => {
  it("is linked from the footer and asks for order number, e-mail and name", async () => {
    const client = new WebClient(server);
    const home = await client.get("/");
    expect(home.html).toContain('<a href="/fortryd">Fortryd købet her</a>');
    const page = await client.get("/fortryd?nr=1001");
    expectHtmlPage(page);
    expect(page.html).toContain('action="/fortryd" method="post"');
    expect(page.html).toMatch(/name="number"[^>]*value="1001"|value="1001"[^>]*name="number"/);
    for (const name of ["email", "name", "_csrf"]) expect(page.html).toContain(`name="${name}"`);
  });

  it("takes a withdrawal in two steps, opens the return and mails the receipt; nothing before the confirmation", async () => {
    const box = captureMail(server);
    const order = await shippedOrder(server, { deliveredDaysAgo: 2 });
    const client = new WebClient(server);
    await client.get("/fortryd");
    const review = await client.post("/fortryd", { number: `#${order.number}`, email: order.email, name: "Mette Hansen" });
    expectHtmlPage(review);
    expect(review.html).toContain('action="/fortryd/bekraeft"');
    expect(review.html).toContain("Hele ordren.");
    await settle();
    expect(await prisma().returnRequest.count({ where: { orderId: order.id } })).toBe(0);
    const receipt = await client.post("/fortryd/bekraeft", { number: `#${order.number}`, email: order.email, name: "Mette Hansen" });
    expectHtmlPage(receipt);
    expect(receipt.html).toContain("Vi har modtaget din fortrydelse");
    expect(receipt.html).toMatch(/withdrawal-received">\d{1,2}\. \p{L}+ \d{4} kl\. \d{2}\.\d{2}</u);
    await settle();
    expect(await prisma().returnRequest.count({ where: { orderId: order.id, kind: "withdrawal" } })).toBe(1);
    expect(box.sent.filter((mail) => mail.to === order.email && /Kvittering for din fortrydelse/.test(mail.subject))).toHaveLength(1);
  });

  it("shows the same receipt when nothing matches", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 2 });
    const hit = await declare(new WebClient(server), { number: String(order.number), email: order.email, name: "Mette Hansen" });
    const miss = await declare(new WebClient(server), { number: "999999", email: "ingen@example.dk", name: "Ingen" });
    expect(miss.status).toBe(hit.status);
    expect(shape(miss.html).replace(/Ingen/g, "Mette Hansen")).toBe(shape(hit.html));
    await settle();
  });

  it("answers bad input with 400 and the fields marked, and refuses a post without its CSRF token", async () => {
    const client = new WebClient(server);
    await client.get("/fortryd");
    const bad = await client.post("/fortryd", { number: "abc", email: "nej", name: "" });
    expectHtmlPage(bad, 400);
    expect(bad.html).toContain("Skriv ordrenummeret");
    expect(bad.html).toContain("Skriv en gyldig e-mailadresse.");
    const forged = await client.post("/fortryd/bekraeft", { _csrf: "forged", number: "1001", email: "a@example.dk", name: "A" });
    expect(forged.status).toBe(403);
  });

  it("from the order page, lets the owner choose lines and withdraws only those", async () => {
    const customer = await createCustomer(server, { email: "fortryd-linjer@example.dk", name: "Mette Hansen" });
    const order = await shippedOrder(server, { deliveredDaysAgo: 1, quantities: [2, 1], email: customer.email, userId: customer.id });
    const client = new WebClient(server);
    const [name, value] = (await sessionFor(server, customer.id)).split("=");
    client.cookies.set(name!, value!);
    const orderPage = await client.get(`/orders/${order.id}`);
    expect(orderPage.html).toContain(`<a href="/fortryd?ordre=${order.id}">Fortryd købet her</a>`);
    const page = await client.get(`/fortryd?ordre=${order.id}`);
    expectHtmlPage(page);
    const two = order.items.find((item) => item.quantity === 2)!;
    const one = order.items.find((item) => item.quantity === 1)!;
    expect(page.html).toContain(`name="line:${two.id}"`);
    const fields = { ordre: order.id, number: String(order.number), email: customer.email, name: "Mette Hansen", [`line:${two.id}`]: "1", [`line:${one.id}`]: "0" };
    const review = await client.post("/fortryd", fields);
    expect(review.html).toContain(`1 × ${two.productName}`);
    expectHtmlPage(await client.post("/fortryd/bekraeft", fields));
    await settle();
    const ret = await prisma().returnRequest.findFirstOrThrow({ where: { orderId: order.id }, include: { items: true } });
    expect(ret.items).toEqual([expect.objectContaining({ orderItemId: two.id, quantity: 1 })]);
  });

  it("is linked from the order confirmation and shipped e-mails", async () => {
    const order = await shippedOrder(server, { deliveredDaysAgo: 1 });
    const sent: MailMessage[] = [];
    const mailer: Mailer = { send: async (message) => (sent.push(message), { messageId: `<${sent.length}@test>`, transport: "smtp" }), close() {} };
    await sendOrderConfirmation(prisma(), mailer, order.id, new Date(), "https://shop.example.dk");
    await sendShipped(prisma(), mailer, order.id, new Date(), "https://shop.example.dk");
    expect(sent).toHaveLength(2);
    for (const mail of sent) {
      expect(mail.text).toContain(`Fortryd købet her: https://shop.example.dk/fortryd?nr=${order.number}`);
      expect(mail.html).toContain(`>Fortryd købet her</a>`);
    }
  });
});
