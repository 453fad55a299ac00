// orders.resend_confirmation through real HTTP: the e-mail after commit, its content, the recorded send, failures.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { captureMail, createOrder, orderState } from "./fixtures.ts";

type Result = { id: string; to: string; sent: boolean; confirmationEmailSentAt: string | null };

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });
let mail: ReturnType<typeof captureMail>;
beforeAll(async () => {
  mail = captureMail(server);
});

const resend = (orderId: string) => server.call("orders.resend_confirmation", { orderId }, { key });
const prisma = () => server.prisma;

describe("orders.resend_confirmation", () => {
  it("sends a Danish confirmation with lines, totals in kr., VAT and address, and records it", async () => {
    const order = await createOrder(server, { status: "shipped", email: "mette@example.dk", discountDkk: 12345, quantities: [2, 1], variant: true });
    mail.sent.length = 0;
    const result = expectOk<Result>(server, "orders.resend_confirmation", await resend(order.id));
    expect(result).toMatchObject({ id: order.id, to: "mette@example.dk", sent: true });
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.confirmationEmailSentAt!.toISOString()).toBe(result.confirmationEmailSentAt);
    expect(mail.sent).toHaveLength(1);
    const message = mail.sent[0]!;
    expect(message.to).toBe("mette@example.dk");
    expect(message.subject).toBe(`Ordrebekræftelse for ordre #${order.number} – Nordlys Optik`);
    expect(message.text).toContain(`Ordrenummer: #${order.number}`);
    expect(message.html).toContain(`Ordrenummer: <strong>#${order.number}</strong>`);
    expect(message.text).not.toContain(order.id);
    // The shopper's page of the order, by its number (sign-in by an e-mailed code leads there).
    expect(message.text).toContain(`/orders/number/${order.number}`);
    expect(message.html).toMatch(new RegExp(`<a href="[^"]*/orders/number/${order.number}">Se din ordre</a>`));
    expect(message.text).toContain("Leveringsadresse:");
    expect(message.subject).toContain("Nordlys Optik");
    const kr = (oere: bigint) => `${(Number(oere) / 100).toFixed(2).replace(".", ",").replace(/\B(?=(\d{3})+(?!\d))/g, ".")} kr.`;
    expect(message.text).toContain(`I alt: ${kr(order.totalDkk)}`);
    expect(message.text).toContain(`Heraf moms (25 %): ${kr(order.totalDkk / 5n)}`);
    expect(message.text).toContain("Rabat (SOMMER10): -123,45 kr.");
    expect(message.text).toContain("Fragt: 49,00 kr.");
    for (const item of order.items) expect(message.text).toContain(`${item.quantity} × ${item.productName}`);
    expect(message.text).toContain("8000 Aarhus C");
    expect(message.html).toContain("<table>");
    const emails = await prisma().emailMessage.findMany({ where: { orderId: order.id } });
    expect(emails).toMatchObject([{ kind: "order_confirmation", to: "mette@example.dk", messageId: "<test-1@example.dk>" }]);
    expect(await lastAudit(server)).toMatchObject({ tool: "orders.resend_confirmation", subjectType: "order", subjectId: order.id });
  });

  it("escapes HTML in the e-mail", async () => {
    const order = await createOrder(server, { status: "paid", shippingAddress: "<script>alert(1)</script> 3" });
    mail.sent.length = 0;
    expectOk(server, "orders.resend_confirmation", await resend(order.id));
    expect(mail.sent[0]!.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; 3");
    expect(mail.sent[0]!.html).not.toContain("<script>");
  });

  it("reports a failed send honestly and records nothing about it", async () => {
    const order = await createOrder(server, { status: "paid" });
    mail.fail = true;
    try {
      const result = expectOk<Result>(server, "orders.resend_confirmation", await resend(order.id));
      expect(result).toEqual({ id: order.id, to: order.email, sent: false, confirmationEmailSentAt: null });
    } finally {
      mail.fail = false;
    }
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).confirmationEmailSentAt).toBeNull();
    expect(await prisma().emailMessage.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("refuses an unpaid order with 422 order_not_paid, sending nothing", async () => {
    const order = await createOrder(server, { status: "pending_payment" });
    const before = await orderState(server, order.id);
    const sent = mail.sent.length;
    expectProblem(await resend(order.id), 422, "order_not_paid");
    expect(mail.sent.length).toBe(sent);
    expect(await orderState(server, order.id)).toEqual(before);
  });

  it("answers 404 for an unknown order", async () => {
    expectProblem(await resend("nope"), 404, "not_found");
  });

  it("needs orders:write", async () => {
    const order = await createOrder(server, { status: "paid" });
    await expectScopeMatrix(server, "orders.resend_confirmation", { orderId: order.id });
  });

  it("rejects bad input with a 400 problem and sends nothing", async () => {
    const sent = mail.sent.length;
    await expectRejected(server, "orders.resend_confirmation", key, [{}, { orderId: "" }, { orderId: 1 }, { orderId: "x", to: "other@example.dk" }]);
    expect(mail.sent.length).toBe(sent);
  });
});
