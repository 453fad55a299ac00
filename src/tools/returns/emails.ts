// The Danish e-mails of a return, sent after commit and recorded as EmailMessage rows on the order: how to send the
// goods back once approved, a refusal with its reason, and what was refunded (and where) or how the exchange goes on.
import { escapeHtml, formatMoney } from "../../core/format.ts";
import type { Order } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { orderRef } from "../shared/order-numbers.ts";
import type { Returned } from "../money/refunds.ts";
import type { Settings } from "../settings/schemas.ts";
import { getSettings } from "../settings/settings-document.ts";
import { returnReference, type ReturnWithItems } from "./schemas.ts";

type Kind = "return_approved" | "return_rejected" | "refund_issued" | "return_exchanged";
type Compose = (settings: Settings) => { subject: string; lines: string[] };

const day = (date: Date) => date.toLocaleDateString("da-DK", { timeZone: "Europe/Copenhagen", day: "numeric", month: "long", year: "numeric" });
const itemLines = (ret: ReturnWithItems) => ret.items.map((item) => `${item.quantity} × ${item.orderItem.productName}`);

/** Sends after commit (never on rollback) to the order's address, recorded as an EmailMessage of `kind`. */
function mailAfterCommit(ctx: ToolContext, order: Order, kind: Kind, compose: Compose): void {
  if (!order.email) return;
  ctx.afterCommit(async () => {
    const settings = await getSettings(ctx.collaborators.db);
    const { subject, lines } = compose(settings);
    const text = [...lines, "", `Venlig hilsen ${settings.branding.shopName}`].join("\n");
    const html = [...lines, "", `Venlig hilsen ${settings.branding.shopName}`].map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "")).join("\n");
    const sent = await ctx.collaborators.mailer.send({ to: order.email, subject, text, html });
    await ctx.collaborators.db.emailMessage.create({
      data: { to: order.email, subject, kind, orderId: order.id, transport: sent.transport, messageId: sent.messageId, createdAt: ctx.now() },
    });
  });
}

/** Approved: where to send the parcel, the reference to put in it, what to pack, and when the refund comes at the latest. */
export function mailApproved(ctx: ToolContext, order: Order, ret: ReturnWithItems): void {
  const reference = returnReference(ret);
  mailAfterCommit(ctx, order, "return_approved", ({ branding, contact }) => ({
    subject: `Din returnering ${reference} er godkendt – ${branding.shopName}`,
    lines: [
      `Vi har godkendt din ${ret.kind === "withdrawal" ? "returnering" : "reklamation"} af varer fra ordre ${orderRef(order.number)}:`,
      ...itemLines(ret),
      "",
      "Sådan sender du varerne retur:",
      `1. Pak varerne forsvarligt, gerne i den originale emballage, med etui, tilbehør og eventuelle gaver.`,
      `2. Læg en seddel i pakken med returreferencen ${reference} og ordrenummeret ${orderRef(order.number)}.`,
      `3. Send pakken til: ${branding.shopName}, ${contact.address}.`,
      "4. Gem kvitteringen for forsendelsen, til pakken er fremme.",
      "",
      ret.kind === "withdrawal"
        ? "Ved fortrydelse betaler du selv returfragten."
        : `Ved en reklamation dækker vi rimelige udgifter til returfragten: send kvitteringen til ${contact.email}.`,
      ret.exchangeVariantId
        ? "Når vi har modtaget varerne, sender vi den variant, du har valgt i bytte."
        : `Når vi har modtaget varerne, refunderer vi beløbet, senest ${day(ret.refundDueBy ?? ctx.now())}.`,
      `Spørgsmål? Skriv til ${contact.email} eller ring på ${contact.phone}.`,
    ],
  }));
}

/** Rejected: the reason, and where to ask. */
export function mailRejected(ctx: ToolContext, order: Order, ret: ReturnWithItems): void {
  const reference = returnReference(ret);
  mailAfterCommit(ctx, order, "return_rejected", ({ branding, contact }) => ({
    subject: `Din returnering ${reference} – ${branding.shopName}`,
    lines: [
      `Vi kan desværre ikke godkende din ${ret.kind === "withdrawal" ? "returnering" : "reklamation"} af varer fra ordre ${orderRef(order.number)}:`,
      ...itemLines(ret),
      "",
      `Begrundelse: ${ret.rejectReason ?? ""}`,
      "",
      `Er du uenig, så skriv til ${contact.email} med referencen ${reference}, så ser vi på det igen.`,
    ],
  }));
}

/** Where a part of a refund went, as the shopper reads it. */
function destination(method: string, contact: Settings["contact"], card?: string): string {
  switch (method) {
    case "topped_up":
      return `sat ind på dit gavekort ${card ?? ""}`.trimEnd();
    case "gift_card":
      return "tilbage på det gavekort, du betalte med";
    case "card":
      return "tilbage på dit betalingskort (der kan gå nogle bankdage, før du ser det)";
    case "mobilepay":
      return "tilbage via MobilePay";
    case "store_credit":
      return "som tilgodebevis; koden får du i en mail for sig";
    case "bank_transfer":
      return `til din bankkonto: vi overfører det inden for få dage (har vi ikke dit reg.nr. og kontonummer, så skriv dem til ${contact.email})`;
    default:
      return `via ${method}`;
  }
}

function refundLines(returned: Returned, contact: Settings["contact"], currency: string): string[] {
  return returned.parts.map((part) => `${formatMoney(part.amountDkk, currency)} ${destination(part.method, contact, part.card)}.`);
}

/** Received and refunded: the amount and where it went (or that nothing was left to refund). */
export function mailRefunded(ctx: ToolContext, order: Order, ret: ReturnWithItems, returned: Returned): void {
  const reference = returnReference(ret);
  // A bank transfer is a refund task staff pay out by hand later: until then the money "refunderes", it is not refunded yet.
  const byHand = returned.parts.some((part) => part.method === "bank_transfer");
  const amount = formatMoney(returned.amountDkk, order.currency);
  mailAfterCommit(ctx, order, "refund_issued", ({ branding, contact }) => ({
    subject: byHand ? `Din returnering ${reference} refunderes – ${branding.shopName}` : `Vi har refunderet din returnering ${reference} – ${branding.shopName}`,
    lines: [
      `Vi har modtaget dine returnerede varer fra ordre ${orderRef(order.number)}:`,
      ...itemLines(ret),
      "",
      ...(returned.amountDkk > 0n
        ? [byHand ? `${amount} refunderes:` : `Vi har refunderet ${amount}:`, ...refundLines(returned, contact, order.currency)]
        : [`Der var ikke noget beløb tilbage at refundere på ordren. Skriv til ${contact.email}, hvis det ikke passer.`]),
    ],
  }));
}

/** Received as an exchange: the replacement order, what is left to pay (with the link) or what was refunded. */
export function mailExchanged(ctx: ToolContext, order: Order, ret: ReturnWithItems, replacement: { number: number; dueDkk: bigint; paymentUrl: string | null }, returned: Returned): void {
  const reference = returnReference(ret);
  mailAfterCommit(ctx, order, "return_exchanged", ({ branding, contact }) => ({
    subject: `Din ombytning ${reference} er på vej – ${branding.shopName}`,
    lines: [
      `Vi har modtaget dine returnerede varer fra ordre ${orderRef(order.number)}:`,
      ...itemLines(ret),
      "",
      `Den variant, du valgte i bytte, sender vi som ordre ${orderRef(replacement.number)} uden fragt. Du får en mail, når den er sendt.`,
      ...(replacement.paymentUrl
        ? [`Den nye variant koster ${formatMoney(replacement.dueDkk, order.currency)} mere. Betal forskellen her, så sender vi den: ${replacement.paymentUrl}`]
        : []),
      ...(returned.amountDkk > 0n ? [`Den nye variant er billigere, så vi har refunderet forskellen, ${formatMoney(returned.amountDkk, order.currency)}:`, ...refundLines(returned, contact, order.currency)] : []),
    ],
  }));
}
