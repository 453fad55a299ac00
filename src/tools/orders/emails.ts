// The Danish order e-mails, rendered from the order row, sent after commit and recorded as EmailMessage rows: the
// confirmation (once paid), for bank-transfer orders the payment instructions with the shop's bank account, the shipped
// e-mail and the order-changed e-mail after an item edit.
import type { Db } from "../../core/db.ts";
import type { Mailer, MailMessage } from "../../core/mail.ts";
import { NotFound } from "../../core/errors.ts";
import type { Order, OrderItem } from "../../generated/prisma/client.ts";
import { escapeHtml, formatMoney } from "../../core/format.ts";
import type { Settings } from "../settings/schemas.ts";
import { getSection } from "../settings/settings-document.ts";
import { getReturnDays, getTransferAccount } from "../settings/sale-terms.ts";
import { orderRef } from "../shared/order-numbers.ts";
import { shopName } from "../shared/shop-name.ts";

interface Line {
  label: string;
  value: string;
}

export type OrderWithItems = Order & { items: OrderItem[] };

function loadOrder(db: Db, orderId: string) {
  return db.order.findUnique({ where: { id: orderId }, include: { items: { orderBy: { id: "asc" } } } });
}


function variantText(attributes: unknown): string {
  if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) return "";
  const parts = Object.entries(attributes).map(([key, value]) => `${key}: ${String(value)}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** The item lines and the totals (subtotal, discount, shipping, total, VAT) of an order, as label/value pairs in its currency. */
function orderLines(order: OrderWithItems): { items: Line[]; totals: Line[] } {
  const items = order.items.map((item) => ({
    label: `${item.quantity} × ${item.productName}${variantText(item.variantAttributes)}`,
    value: formatMoney(item.unitPriceDkk * BigInt(item.quantity), order.currency),
  }));
  const totals: Line[] = [{ label: "Subtotal", value: formatMoney(order.subtotalDkk, order.currency) }];
  if (order.discountDkk > 0n) {
    totals.push({ label: `Rabat${order.discountCode ? ` (${order.discountCode})` : ""}`, value: formatMoney(-order.discountDkk, order.currency) });
  }
  totals.push({ label: "Fragt", value: formatMoney(order.shippingDkk, order.currency) });
  totals.push({ label: "I alt", value: formatMoney(order.totalDkk, order.currency) });
  // An order of a shop whose prices are without VAT has no VAT amount, and its mails no VAT line.
  if (order.vatOere !== null) totals.push({ label: "Heraf moms (25 %)", value: formatMoney(order.vatOere, order.currency) });
  return { items, totals };
}

/** The lines of a plain-text mail, "label: value" each (the HTML part has them as table rows). */
const texts = (lines: Line[]) => lines.map((l) => `${l.label}: ${l.value}`);
const rows = (lines: Line[]) =>
  lines.map((l) => `<tr><td>${escapeHtml(l.label)}</td><td style="text-align:right">${escapeHtml(l.value)}</td></tr>`).join("");

/** The shopper's own page of an order, by the number they know it by (it asks them to sign in with an e-mailed code). */
function orderPageUrl(publicBaseUrl: string, number: number): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/orders/number/${number}`;
}

/**
 * The withdrawal function's page for this order ("Fortryd købet her", Consumer Rights Directive art. 11a), beside the
 * order page the mail links to; the number is filled in, the shopper adds e-mail and name.
 */
function withdrawalLink(order: OrderWithItems, orderUrl: string | undefined): { text: string[]; html: string } {
  if (!orderUrl) return { text: [], html: "" };
  const url = new URL(`/fortryd?nr=${order.number}`, orderUrl).href;
  return { text: [`Fortryd købet her: ${url}`, ""], html: `<p><a href="${escapeHtml(url)}">Fortryd købet her</a> – du kan fortryde i 14 dage efter levering.</p>` };
}

/** The delivery method chosen at checkout and, for a parcel-shop method, where to fetch the parcel; [] without one. */
function deliveryLines(order: OrderWithItems): string[] {
  if (!order.deliveryMethodName) return [];
  const point = order.pickupPoint as { name: string; address: string; zip: string; city: string } | null;
  return [`Levering: ${order.deliveryMethodName}`, ...(point ? [`Afhentes i pakkeshop: ${point.name}, ${point.address}, ${point.zip} ${point.city}`] : [])];
}

/** Renders subject, plain text and escaped HTML of the confirmation for an order (with its items). */
function renderOrderConfirmation(order: OrderWithItems, shop: string, orderUrl?: string): MailMessage {
  const { items, totals } = orderLines(order);
  const address = [order.shippingName, order.shippingAddress, `${order.shippingZip} ${order.shippingCity}`];
  const delivery = deliveryLines(order);
  const subject = `Ordrebekræftelse for ordre ${orderRef(order.number)} – ${shop}`;
  const text = [
    `Tak for din ordre hos ${shop}!`,
    "",
    `Ordrenummer: ${orderRef(order.number)}`,
    "",
    ...texts(items),
    "",
    ...texts(totals),
    "",
    ...(delivery.length ? [...delivery, ""] : []),
    "Leveringsadresse:",
    ...address,
    "",
    ...(orderUrl ? [`Følg, ændr eller annuller ordren her: ${orderUrl}`, ""] : []),
    ...withdrawalLink(order, orderUrl).text,
    `Venlig hilsen ${shop}`,
  ].join("\n");
  const html = [
    `<p>Tak for din ordre hos ${escapeHtml(shop)}!</p>`,
    `<p>Ordrenummer: <strong>${orderRef(order.number)}</strong></p>`,
    `<table>${rows(items)}</table>`,
    `<table>${rows(totals)}</table>`,
    delivery.length ? `<p>${delivery.map(escapeHtml).join("<br>")}</p>` : "",
    `<p>Leveringsadresse:<br>${address.map(escapeHtml).join("<br>")}</p>`,
    orderUrl ? `<p><a href="${escapeHtml(orderUrl)}">Se din ordre</a> – følg den, ændr adressen eller annuller, før den er sendt.</p>` : "",
    withdrawalLink(order, orderUrl).html,
    `<p>Venlig hilsen ${escapeHtml(shop)}</p>`,
  ].join("\n");
  return { to: order.email, subject, text, html };
}

/**
 * Sends the order confirmation, records it (EmailMessage kind "order_confirmation") and sets
 * Order.confirmationEmailSentAt = now. Call it only after the order's transaction has committed
 * (from ctx.afterCommit or after a webhook transaction); a failed send throws and records nothing.
 */
export async function sendOrderConfirmation(db: Db, mailer: Mailer, orderId: string, now: Date, publicBaseUrl?: string): Promise<void> {
  const order = await loadOrder(db, orderId);
  if (!order) throw new NotFound(`Order ${orderId} does not exist.`);
  // An agent's order in a shop that completes on a country alone may have no e-mail: nobody to write to.
  if (!order.email) return;
  const message = renderOrderConfirmation(order, await shopName(db), publicBaseUrl ? orderPageUrl(publicBaseUrl, order.number) : undefined);
  const sent = await mailer.send(message);
  await db.emailMessage.create({
    data: { to: message.to, subject: message.subject, kind: "order_confirmation", orderId, transport: sent.transport, messageId: sent.messageId, createdAt: now },
  });
  await db.order.update({ where: { id: orderId }, data: { confirmationEmailSentAt: now } });
}

/** The contact details a payment e-mail names, the account with its BIC when the owner gave one. */
type PaymentContact = Omit<Settings["contact"], "bankAccount"> & { bankAccount: (NonNullable<Settings["contact"]["bankAccount"]> & { bic?: string | null }) | null };

/**
 * How to pay a bank-transfer order: the amount left to pay (the total less what a gift card paid), the bare order
 * number (1001) as reference, and the shop's account (or whom to ask).
 */
function renderPaymentInstructions(order: OrderWithItems, shop: string, contact: PaymentContact, paymentUrl: string, paidDkk = 0n): MailMessage {
  const { items, totals } = orderLines(order);
  if (paidDkk > 0n) totals.push({ label: "Betalt med gavekort", value: formatMoney(-paidDkk, order.currency) }, { label: "At betale", value: formatMoney(order.totalDkk - paidDkk, order.currency) });
  const account: Line[] = contact.bankAccount
    ? [
        { label: "Bank", value: contact.bankAccount.bankName },
        { label: "Reg.nr.", value: contact.bankAccount.regNo },
        { label: "Kontonr.", value: contact.bankAccount.accountNo },
        { label: "IBAN", value: contact.bankAccount.iban },
        ...(contact.bankAccount.bic ? [{ label: "BIC (SWIFT)", value: contact.bankAccount.bic }] : []),
      ]
    : [];
  const transfer: Line[] = [{ label: "Beløb", value: formatMoney(order.totalDkk - paidDkk, order.currency) }, ...account, { label: "Reference", value: String(order.number) }];
  const ask = contact.bankAccount
    ? "Vi sender varerne, når beløbet er modtaget."
    : `Skriv til ${contact.email} eller ring på ${contact.phone}, så får du vores bankoplysninger. Vi sender varerne, når beløbet er modtaget.`;
  const subject = `Betaling af ordre ${orderRef(order.number)} – ${shop}`;
  const text = [
    `Tak for din ordre ${orderRef(order.number)} hos ${shop}!`,
    "",
    "Betal med bankoverførsel:",
    ...texts(transfer),
    "",
    ask,
    `Oplysningerne står også her: ${paymentUrl}`,
    "",
    ...texts(items),
    "",
    ...texts(totals),
    "",
    `Venlig hilsen ${shop}`,
  ].join("\n");
  const html = [
    `<p>Tak for din ordre ${orderRef(order.number)} hos ${escapeHtml(shop)}!</p>`,
    "<p><strong>Betal med bankoverførsel:</strong></p>",
    `<table>${rows(transfer)}</table>`,
    `<p>${escapeHtml(ask)} <a href="${escapeHtml(paymentUrl)}">Se betalingsoplysningerne</a>.</p>`,
    `<table>${rows(items)}</table>`,
    `<table>${rows(totals)}</table>`,
    `<p>Venlig hilsen ${escapeHtml(shop)}</p>`,
  ].join("\n");
  return { to: order.email, subject, text, html };
}

/**
 * Sends the payment instructions of a bank-transfer order and records them (EmailMessage kind "payment_instructions").
 * Call it only after the order's transaction has committed (from ctx.afterCommit), with the order as it was placed and
 * what a gift card paid of it then (the placing transaction wrote both, so nothing needs reading back).
 */
export async function sendPaymentInstructions(db: Db, mailer: Mailer, order: OrderWithItems, paidDkk: bigint, paymentUrl: string, now: Date): Promise<void> {
  if (!order.email) return;
  const [contact, bankAccount, shop] = await Promise.all([getSection(db, "contact"), getTransferAccount(db), shopName(db)]);
  const sorted = { ...order, items: [...order.items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
  const message = renderPaymentInstructions(sorted, shop, { ...contact, bankAccount }, paymentUrl, paidDkk);
  const sent = await mailer.send(message);
  await db.emailMessage.create({
    data: { to: message.to, subject: message.subject, kind: "payment_instructions", orderId: order.id, transport: sent.transport, messageId: sent.messageId, createdAt: now },
    select: { id: true },
  });
}

/** The parcel is on its way: the lines, where it goes, the carrier and the tracking link, the expected delivery. */
function renderShipped(order: OrderWithItems, shop: string, orderUrl?: string, returnDays = 14): MailMessage {
  const { items } = orderLines(order);
  // A parcel-shop order goes to the shop the shopper picked (as the confirmation says), to be collected in their name.
  const point = order.pickupPoint as { name: string; address: string; zip: string; city: string } | null;
  const to = point ? "Leveres til pakkeshop:" : "Leveres til:";
  const address = point
    ? [point.name, point.address, `${point.zip} ${point.city}`, `Afhentes af ${order.shippingName}`]
    : [order.shippingName, order.shippingAddress, `${order.shippingZip} ${order.shippingCity}`];
  const day = (date: Date) => date.toLocaleDateString("da-DK", { timeZone: "Europe/Copenhagen", weekday: "long", day: "numeric", month: "long" });
  const eta = order.estDeliveryFrom && order.estDeliveryTo ? `Forventet levering: ${day(order.estDeliveryFrom)} – ${day(order.estDeliveryTo)}.` : null;
  const carrier = order.carrier ? `Pakken er sendt med ${order.carrier}${order.trackingNumber ? ` (sporingsnummer ${order.trackingNumber})` : ""}.` : "Pakken er sendt.";
  const subject = `Din ordre ${orderRef(order.number)} er sendt – ${shop}`;
  const text = [
    `Din ordre ${orderRef(order.number)} hos ${shop} er på vej!`,
    "",
    carrier,
    ...(order.trackingUrl ? [`Følg pakken her: ${order.trackingUrl}`] : []),
    ...(eta ? [eta] : []),
    "",
    ...(order.deliveryMethodName ? [`Levering: ${order.deliveryMethodName}`] : []),
    to,
    ...address,
    "",
    ...texts(items),
    "",
    ...(orderUrl ? [`Din ordre, og retur inden for ${returnDays} dage efter levering: ${orderUrl}`, ""] : []),
    ...withdrawalLink(order, orderUrl).text,
    `Venlig hilsen ${shop}`,
  ].join("\n");
  const html = [
    `<p>Din ordre ${orderRef(order.number)} hos ${escapeHtml(shop)} er på vej!</p>`,
    `<p>${escapeHtml(carrier)}${order.trackingUrl ? ` <a href="${escapeHtml(order.trackingUrl)}">Følg pakken</a>.` : ""}</p>`,
    eta ? `<p>${escapeHtml(eta)}</p>` : "",
    order.deliveryMethodName ? `<p>Levering: ${escapeHtml(order.deliveryMethodName)}</p>` : "",
    `<p>${to}<br>${address.map(escapeHtml).join("<br>")}</p>`,
    `<table>${rows(items)}</table>`,
    orderUrl ? `<p><a href="${escapeHtml(orderUrl)}">Se din ordre</a> – her kan du også returnere inden for ${returnDays} dage efter levering.</p>` : "",
    withdrawalLink(order, orderUrl).html,
    `<p>Venlig hilsen ${escapeHtml(shop)}</p>`,
  ].join("\n");
  return { to: order.email, subject, text, html };
}

/** Sends the shipped e-mail once per order (EmailMessage kind "order_shipped"); call it after commit. */
export async function sendShipped(db: Db, mailer: Mailer, orderId: string, now: Date, publicBaseUrl?: string): Promise<void> {
  const order = await loadOrder(db, orderId);
  if (!order?.email) return;
  if (await db.emailMessage.findFirst({ where: { orderId, kind: "order_shipped" }, select: { id: true } })) return;
  const message = renderShipped(order, await shopName(db), publicBaseUrl ? orderPageUrl(publicBaseUrl, order.number) : undefined, await getReturnDays(db));
  const sent = await mailer.send(message);
  await db.emailMessage.create({
    data: { to: message.to, subject: message.subject, kind: "order_shipped", orderId, transport: sent.transport, messageId: sent.messageId, createdAt: now },
  });
}

/** What an item edit did to the money, for its e-mail. */
export interface ChangeNote {
  /** Given back by the edit (to where it was paid from, unless the caller named store credit or a card). */
  returnedDkk: bigint;
  /** Where it went, part by part (refundUpTo's parts); absent: as paid. */
  refundParts?: Array<{ method: string; amountDkk: bigint; card?: string }>;
  /** Still to pay after the edit. */
  outstandingDkk: bigint;
  /** Where to pay it, when there is something to pay. */
  paymentUrl: string | null;
  /** A delivery change (orders.change_delivery): how the order is delivered now, in Danish; absent for an item edit. */
  delivery?: string;
}

/** Where an edit's refund went, in one Danish sentence: as paid, as store credit, or onto the card the shopper named. */
function refundSentence(note: ChangeNote, currency: string): string {
  const amount = formatMoney(note.returnedDkk, currency);
  const part = note.refundParts?.find((p) => p.method === "store_credit" || p.method === "topped_up");
  if (part?.method === "store_credit") return `Vi tilbagebetaler ${amount} som et tilgodebevis; koden får du i en mail for sig.`;
  if (part?.method === "topped_up") return `Vi har sat ${amount} ind på dit gavekort ${part.card ?? ""}`.trimEnd() + ".";
  return `Vi tilbagebetaler ${amount} til dig på samme måde, som du betalte.`;
}

/** The order's items changed: the lines and totals now, and what happens to the difference. */
function renderOrderChanged(order: OrderWithItems, shop: string, note: ChangeNote): MailMessage {
  const { items, totals } = orderLines(order);
  const money = [
    ...(note.returnedDkk > 0n ? [refundSentence(note, order.currency)] : []),
    ...(note.outstandingDkk > 0n ? [`Beløb at betale nu: ${formatMoney(note.outstandingDkk, order.currency)}.`] : []),
  ];
  const subject = `Din ordre ${orderRef(order.number)} er ændret – ${shop}`;
  const intro = note.delivery ? `Vi har ændret leveringen af din ordre hos ${shop}.` : `Vi har ændret varerne i din ordre hos ${shop}.`;
  const text = [
    intro,
    "",
    `Ordrenummer: ${orderRef(order.number)}`,
    ...(note.delivery ? [`Levering: ${note.delivery}`] : []),
    "",
    ...texts(items),
    "",
    ...texts(totals),
    "",
    ...money,
    ...(note.outstandingDkk > 0n && note.paymentUrl ? [`Betal her: ${note.paymentUrl}`] : []),
    ...(money.length ? [""] : []),
    `Venlig hilsen ${shop}`,
  ].join("\n");
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<p>Ordrenummer: <strong>${orderRef(order.number)}</strong></p>`,
    note.delivery ? `<p>Levering: ${escapeHtml(note.delivery)}</p>` : "",
    `<table>${rows(items)}</table>`,
    `<table>${rows(totals)}</table>`,
    ...money.map((line) => `<p>${escapeHtml(line)}</p>`),
    note.outstandingDkk > 0n && note.paymentUrl ? `<p><a href="${escapeHtml(note.paymentUrl)}">Betal her</a></p>` : "",
    `<p>Venlig hilsen ${escapeHtml(shop)}</p>`,
  ].join("\n");
  return { to: order.email, subject, text, html };
}

/** Sends the order-changed e-mail (EmailMessage kind "order_changed"); call it after commit. */
export async function sendOrderChanged(db: Db, mailer: Mailer, orderId: string, note: ChangeNote, now: Date): Promise<void> {
  const order = await loadOrder(db, orderId);
  if (!order?.email) return;
  const message = renderOrderChanged(order, await shopName(db), note);
  const sent = await mailer.send(message);
  await db.emailMessage.create({
    data: { to: message.to, subject: message.subject, kind: "order_changed", orderId, transport: sent.transport, messageId: sent.messageId, createdAt: now },
  });
}

/**
 * A paid order's payment link (orders.change_payment): the amount, where to pay it (a bank transfer names the order
 * number as reference on the payment page), and that the earlier payment goes back once this one is paid.
 */
function renderPaymentLink(order: OrderWithItems, shop: string, amount: bigint, paymentUrl: string): MailMessage {
  const subject = `Ny betaling af din ordre ${orderRef(order.number)} – ${shop}`;
  const lines = [
    `Din ordre ${orderRef(order.number)} hos ${shop} skal betales på en ny måde.`,
    "",
    `Beløb at betale: ${formatMoney(amount, order.currency)}.`,
    "Når betalingen er modtaget, tilbagebetaler vi det, du har betalt før, på samme måde, som du betalte det.",
    "",
  ];
  const text = [...lines, `Betal her: ${paymentUrl}`, "", `Venlig hilsen ${shop}`].join("\n");
  const html = [
    ...lines.filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(paymentUrl)}">Betal her</a></p>`,
    `<p>Venlig hilsen ${escapeHtml(shop)}</p>`,
  ].join("\n");
  return { to: order.email, subject, text, html };
}

/** Sends a paid order's new payment link (EmailMessage kind "payment_link"); call it after commit. */
export async function sendPaymentLink(db: Db, mailer: Mailer, orderId: string, amount: bigint, paymentUrl: string, now: Date): Promise<void> {
  const order = await loadOrder(db, orderId);
  if (!order?.email) return;
  const message = renderPaymentLink(order, await shopName(db), amount, paymentUrl);
  const sent = await mailer.send(message);
  await db.emailMessage.create({
    data: { to: message.to, subject: message.subject, kind: "payment_link", orderId, transport: sent.transport, messageId: sent.messageId, createdAt: now },
  });
}
