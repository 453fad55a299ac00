// Bank-transfer (manual payment) orders: the payment-instructions e-mail with the shop's bank account goes out after the
// order is placed (outbox .eml without SMTP_URL, or SMTP), and the payment page promises only the e-mail that was sent.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_BANK_ACCOUNT } from "../../prisma/seed/demo.ts";
import { expectOk } from "../support/expect.ts";
import { useServer, type TestServer } from "../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../support/session.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";
import { captureMail } from "../tools/orders/fixtures.ts";

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
const { server } = useServer();
const { server: smtpServer } = useServer({ config: () => ({ smtpUrl: smtp.url }) });

/** The readable text of a raw message (quoted-printable soft breaks and escapes undone). */
function readable(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function outbox(of: TestServer): string[] {
  const dir = path.join(of.runtime.config.dataDir, "outbox");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((file) => readable(fs.readFileSync(path.join(dir, file), "utf8"))) : [];
}

async function checkout(of: TestServer, email = ADDRESS.email): Promise<{ orderId: string; totalDkk: number; paymentUrl: string }> {
  const cookie = await newSession(of);
  const [product] = await plainProducts(of, 2);
  expectOk(of, "cart.add", await of.call("cart.add", { productSlug: product!.slug }, { cookie }));
  expectOk(of, "cart.set_shipping_address", await of.call("cart.set_shipping_address", { ...ADDRESS, email }, { cookie }));
  return expectOk(of, "cart.checkout", await of.call("cart.checkout", {}, { cookie }));
}

async function paymentPage(of: TestServer, paymentUrl: string): Promise<string> {
  const link = new URL(paymentUrl);
  const response = await fetch(`${of.url}${link.pathname}${link.search}`);
  expect(response.status).toBe(200);
  return response.text();
}

const kr = (oere: number) => `${Math.floor(oere / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${String(oere % 100).padStart(2, "0")} kr.`;

describe("a bank-transfer order", () => {
  it("e-mails the amount, the order number as reference and the shop's bank account (outbox without SMTP), and the page says so", async () => {
    const before = outbox(server).length;
    const placed = await checkout(server, "Betaler@Example.dk");
    const { number } = await server.prisma.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    const mails = outbox(server).slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatch(/^To: betaler@example\.dk$/m);
    for (const line of [`Beløb: ${kr(placed.totalDkk)}`, `Bank: ${DEMO_BANK_ACCOUNT.bankName}`, `Reg.nr.: ${DEMO_BANK_ACCOUNT.regNo}`, `Kontonr.: ${DEMO_BANK_ACCOUNT.accountNo}`, `IBAN: ${DEMO_BANK_ACCOUNT.iban}`, `Reference: ${number}`]) {
      expect(mail).toContain(line);
    }
    expect(mail).toContain(placed.paymentUrl.replace(/^https?:\/\/[^/]+/, ""));
    const recorded = await server.prisma.emailMessage.findMany({ where: { orderId: placed.orderId } });
    expect(recorded).toMatchObject([{ kind: "payment_instructions", transport: "outbox", to: "betaler@example.dk", subject: `Betaling af ordre #${number} – Nordlys Optik` }]);
    expect(mail).not.toContain(`Reference: ${placed.orderId}`);

    const page = await paymentPage(server, placed.paymentUrl);
    expect(page).toContain(DEMO_BANK_ACCOUNT.iban);
    expect(page).toContain(`<th scope="row">Reg.nr.</th><td>${DEMO_BANK_ACCOUNT.regNo}</td>`);
    expect(page).toContain("Vi har sendt betalingsoplysningerne til betaler@example.dk.");
    expect(page).toContain(`skriv ordrenummeret <strong class="order-ref">${number}</strong> som reference`);
    expect(page).toContain(`Ordrenummer <strong class="order-ref">#${number}</strong>`);
    expect(page).not.toMatch(/faktura/i);
  });

  it("sends the same e-mail over SMTP for orders staff place with orders.create", async () => {
    const key = await smtpServer.key("orders:write");
    const placed = expectOk<{ orderId: string }>(smtpServer, "orders.create", await smtpServer.call("orders.create", {
      items: [{ productSlug: "gucci-oversize-bold-74", quantity: 1 }],
      email: "telefonkunde@example.dk",
      shipping: { name: "Jens Jensen", address: "Vestergade 1", zip: "8000", city: "Aarhus C" },
      channel: "phone",
    }, { key }));
    const mail = await smtp.waitFor((m) => m.to.includes("telefonkunde@example.dk"));
    expect(readable(mail.raw)).toContain(`IBAN: ${DEMO_BANK_ACCOUNT.iban}`);
    const { number } = await smtpServer.prisma.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    expect(readable(mail.raw)).toContain(`Reference: ${number}`);
    expect(await smtpServer.prisma.emailMessage.count({ where: { orderId: placed.orderId, kind: "payment_instructions", transport: "smtp" } })).toBe(1);
  });

  it("names the delivery method and parcel shop on the payment page and links to the order (issue 39 item 10)", async () => {
    const cookie = await newSession(server);
    const [product] = await plainProducts(server, 1);
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product!.slug }, { cookie }));
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const placed = expectOk<{ orderId: string; paymentUrl: string }>(server, "cart.checkout", await server.call("cart.checkout", { deliveryMethodId: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar" }, { cookie }));
    const { number } = await server.runtime.database.prisma.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    const page = await paymentPage(server, placed.paymentUrl);
    expect(page).toContain("<p><strong>GLS Pakkeshop</strong><br>Afhentes i pakkeshop: Spar Trøjborg, Tordenskjoldsgade 20, 8200 Aarhus N</p>");
    expect(page).toContain(`<a href="/orders/number/${number}">Se din ordre</a>`);
  });

  it("without a bank account set, tells the shopper whom to ask instead of showing one", async () => {
    const key = await server.key("settings:write");
    expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { bankAccount: null }, { key }));
    const before = outbox(server).length;
    const placed = await checkout(server);
    const mail = outbox(server).slice(before)[0]!;
    expect(mail).toContain("Skriv til kundeservice@nordlys-optik.dk eller ring på +45 70 20 30 40, så får du vores bankoplysninger.");
    expect(mail).not.toContain("IBAN");
    const page = await paymentPage(server, placed.paymentUrl);
    expect(page).toContain("Skriv eller ring til os, så får du vores bankoplysninger.");
    expect(page).not.toContain("IBAN");
  });

  it("is still placed when the e-mail fails, and then the page promises no e-mail", async () => {
    const box = captureMail(server);
    box.fail = true;
    const placed = await checkout(server);
    expect(await server.prisma.order.findUniqueOrThrow({ where: { id: placed.orderId } })).toMatchObject({ status: "pending_payment" });
    expect(await server.prisma.emailMessage.count({ where: { orderId: placed.orderId } })).toBe(0);
    const page = await paymentPage(server, placed.paymentUrl);
    expect(page).not.toContain("Vi har sendt");
    expect(page).toContain("Vi sender varerne, når beløbet er modtaget.");
  });
});
