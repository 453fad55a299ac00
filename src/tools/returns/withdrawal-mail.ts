// The receipt of a withdrawal declaration (a durable medium, Consumer Rights Directive art. 11a(3)): what was declared,
// the order number, the date and time it was received, and what happens next; sent to the order's own address.
import { escapeHtml } from "../../core/format.ts";
import type { ToolContext } from "../context.ts";
import { orderRef } from "../shared/order-numbers.ts";
import type { OrderWithItems } from "../orders/schemas.ts";
import { getSettings } from "../settings/settings-document.ts";
import { WITHDRAWAL_DAYS } from "./deadlines.ts";
import { returnReference, type ReturnWithItems } from "./schemas.ts";

/** What the shopper declared (returns.withdraw's input). */
export interface Declaration {
  orderNumber: number;
  email: string;
  name: string;
  lines?: Array<{ orderItemId: string; quantity?: number | undefined }> | undefined;
}

export type Outcome =
  | { kind: "opened"; order: OrderWithItems; ret: ReturnWithItems; excluded: string[] }
  | { kind: "nothing"; order: OrderWithItems; excluded: string[] }
  | { kind: "unshipped"; order: OrderWithItems; ticketId: string }
  | { kind: "late"; order: OrderWithItems; deadline: Date | null }
  | { kind: "closed"; order: OrderWithItems };

const ZONE = "Europe/Copenhagen";
/** "28. november 2026 kl. 10.57" in Copenhagen time. */
export function danishDateTime(at: Date): string {
  const date = at.toLocaleDateString("da-DK", { timeZone: ZONE, day: "numeric", month: "long", year: "numeric" });
  const time = at.toLocaleTimeString("da-DK", { timeZone: ZONE, hour: "2-digit", minute: "2-digit" });
  return `${date} kl. ${time}`;
}

/** What the declaration named: its lines as "2 × name", or the whole order. */
function declaredLines(declaration: Declaration, order: OrderWithItems): string[] {
  if (!declaration.lines?.length) return ["Hele ordren:", ...order.items.map((item) => `${item.quantity} × ${item.productName}`)];
  return declaration.lines.flatMap((line) => {
    const item = order.items.find((i) => i.id === line.orderItemId);
    return item ? [`${line.quantity ?? item.quantity} × ${item.productName}`] : [];
  });
}

function nextSteps(outcome: Outcome, contactEmail: string): string[] {
  const excluded = "excluded" in outcome && outcome.excluded.length
    ? [`Disse varer er fremstillet efter dine mål og kan ikke fortrydes (en reklamation over fejl kan du stadig sende): ${outcome.excluded.join(", ")}.`]
    : [];
  switch (outcome.kind) {
    case "opened":
      return [
        `Vi har oprettet returneringen ${returnReference(outcome.ret)} af:`,
        ...outcome.ret.items.map((item) => `${item.quantity} × ${item.orderItem.productName}`),
        ...excluded,
        "",
        "Du får en mail med vejledning i, hvordan du sender varerne retur. Pengene refunderer vi, når varerne er kommet retur til os.",
      ];
    case "nothing":
      return [...excluded, `Ingen af varerne kunne fortrydes: de er allerede i en returnering, eller de står ikke på ordren. Skriv til ${contactEmail}, hvis det ikke passer.`];
    case "unshipped":
      return ["Ordren er ikke sendt endnu. Vi stopper den og skriver til dig, når den er annulleret."];
    case "late":
      return [
        `Fortrydelsesfristen på ${WITHDRAWAL_DAYS} dage fra levering${outcome.deadline ? ` udløb ${danishDateTime(outcome.deadline)}` : " er udløbet"}, så vi kan ikke tage imod fortrydelsen.`,
        `Er en vare defekt, kan du stadig reklamere: skriv til ${contactEmail}.`,
      ];
    case "closed":
      return [`Ordren er allerede annulleret eller refunderet, så der er ikke mere at gøre. Skriv til ${contactEmail}, hvis du har spørgsmål.`];
  }
}

/** Sends the receipt and records it as an EmailMessage on the order (kind withdrawal_receipt). */
export async function mailWithdrawalReceipt(ctx: ToolContext, declaration: Declaration, receivedAt: Date, outcome: Outcome): Promise<void> {
  const { order } = outcome;
  const { branding, contact } = await getSettings(ctx.collaborators.db);
  const subject = `Kvittering for din fortrydelse af ordre ${orderRef(order.number)} – ${branding.shopName}`;
  const lines = [
    `Hej ${declaration.name}`,
    "",
    `Vi modtog din fortrydelse ${danishDateTime(receivedAt)}.`,
    "",
    "Det har du erklæret:",
    `Jeg fortryder købet (ordre ${orderRef(order.number)}) af:`,
    ...declaredLines(declaration, order),
    `Navn: ${declaration.name}`,
    `E-mail: ${order.email}`,
    `Modtaget: ${danishDateTime(receivedAt)}`,
    "",
    ...nextSteps(outcome, contact.email),
    "",
    `Venlig hilsen ${branding.shopName}`,
  ];
  const text = lines.join("\n");
  const html = lines.map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "")).join("\n");
  const sent = await ctx.collaborators.mailer.send({ to: order.email, subject, text, html });
  await ctx.collaborators.db.emailMessage.create({
    data: { to: order.email, subject, kind: "withdrawal_receipt", orderId: order.id, transport: sent.transport, messageId: sent.messageId, createdAt: receivedAt },
  });
}
