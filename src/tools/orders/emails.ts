// The Danish order confirmation e-mail: rendered from the order row, sent after commit, recorded as an EmailMessage.
import type { Db } from "../../core/db.ts";
import type { Mailer, MailMessage } from "../../core/mail.ts";
import { NotFound } from "../../core/errors.ts";

/** Øre as Danish kroner: 123450 → "1.234,50 kr." */
export function formatKr(oere: number | bigint): string {
  const value = Number(oere);
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(Math.round(value));
  const kroner = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}${kroner},${String(abs % 100).padStart(2, "0")} kr.`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
}

interface Line {
  label: string;
  value: string;
}

type OrderWithItems = NonNullable<Awaited<ReturnType<typeof loadOrder>>>;

function loadOrder(db: Db, orderId: string) {
  return db.order.findUnique({ where: { id: orderId }, include: { items: { orderBy: { id: "asc" } } } });
}

async function shopName(db: Db): Promise<string> {
  const row = await db.setting.findUnique({ where: { section: "branding" } });
  const value = row?.value as { shopName?: unknown } | null | undefined;
  return typeof value?.shopName === "string" && value.shopName ? value.shopName : "Webshoppen";
}

function variantText(attributes: unknown): string {
  if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) return "";
  const parts = Object.entries(attributes).map(([key, value]) => `${key}: ${String(value)}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** Renders subject, plain text and escaped HTML of the confirmation for an order (with its items). */
export function renderOrderConfirmation(order: OrderWithItems, shop: string): MailMessage {
  const items = order.items.map((item) => ({
    label: `${item.quantity} × ${item.productName}${variantText(item.variantAttributes)}`,
    value: formatKr(item.unitPriceDkk * BigInt(item.quantity)),
  }));
  const vat = order.vatOere ?? order.totalDkk / 5n;
  const totals: Line[] = [{ label: "Subtotal", value: formatKr(order.subtotalDkk) }];
  if (order.discountDkk > 0n) {
    totals.push({ label: `Rabat${order.discountCode ? ` (${order.discountCode})` : ""}`, value: formatKr(-order.discountDkk) });
  }
  totals.push({ label: "Fragt", value: formatKr(order.shippingDkk) });
  totals.push({ label: "I alt", value: formatKr(order.totalDkk) });
  totals.push({ label: "Heraf moms (25 %)", value: formatKr(vat) });
  const address = [order.shippingName, order.shippingAddress, `${order.shippingZip} ${order.shippingCity}`];
  const subject = `Ordrebekræftelse ${order.id} – ${shop}`;
  const text = [
    `Tak for din ordre hos ${shop}!`,
    "",
    `Ordrenummer: ${order.id}`,
    "",
    ...items.map((l) => `${l.label}: ${l.value}`),
    "",
    ...totals.map((l) => `${l.label}: ${l.value}`),
    "",
    "Leveringsadresse:",
    ...address,
    "",
    `Venlig hilsen ${shop}`,
  ].join("\n");
  const rows = (lines: Line[]) =>
    lines.map((l) => `<tr><td>${escapeHtml(l.label)}</td><td style="text-align:right">${escapeHtml(l.value)}</td></tr>`).join("");
  const html = [
    `<p>Tak for din ordre hos ${escapeHtml(shop)}!</p>`,
    `<p>Ordrenummer: <strong>${escapeHtml(order.id)}</strong></p>`,
    `<table>${rows(items)}</table>`,
    `<table>${rows(totals)}</table>`,
    `<p>Leveringsadresse:<br>${address.map(escapeHtml).join("<br>")}</p>`,
    `<p>Venlig hilsen ${escapeHtml(shop)}</p>`,
  ].join("\n");
  return { to: order.email, subject, text, html };
}

/**
 * Sends the order confirmation, records it (EmailMessage kind "order_confirmation") and sets
 * Order.confirmationEmailSentAt = now. Call it only after the order's transaction has committed
 * (from ctx.afterCommit or after a webhook transaction); a failed send throws and records nothing.
 */
export async function sendOrderConfirmation(db: Db, mailer: Mailer, orderId: string, now: Date): Promise<void> {
  const order = await loadOrder(db, orderId);
  if (!order) throw new NotFound(`Order ${orderId} does not exist.`);
  const message = renderOrderConfirmation(order, await shopName(db));
  const sent = await mailer.send(message);
  await db.emailMessage.create({
    data: { to: message.to, subject: message.subject, kind: "order_confirmation", orderId, transport: sent.transport, messageId: sent.messageId, createdAt: now },
  });
  await db.order.update({ where: { id: orderId }, data: { confirmationEmailSentAt: now } });
}
