// Support tickets: a shopper's request for a person, staff replies by e-mail. Shared by the support.* tools.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { escapeHtml } from "../../core/format.ts";
import type { Db } from "../../core/db.ts";
import type { SupportTicket } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { isoDateTime } from "../shared/timestamps.ts";

export const TICKET_STATUSES = ["open", "answered", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const ticketId = z.string().min(1).max(200).describe("From support.list_tickets.");
export const messageText = z.string().trim().min(1).max(5000);

export const ticketSummary = z.strictObject({
  ticketId: z.string(),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  email: z.string(),
  orderId: z.string().nullable(),
  messageCount: z.number().int().min(0),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export function toSummary(ticket: SupportTicket & { _count: { messages: number } }): z.output<typeof ticketSummary> {
  return {
    ticketId: ticket.id,
    subject: ticket.subject,
    status: ticket.status as TicketStatus,
    email: ticket.email,
    orderId: ticket.orderId,
    messageCount: ticket._count.messages,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
  };
}

/** Locks the ticket row for the rest of the transaction and loads it; 404 when unknown. */
export async function lockTicket(db: Db, id: string): Promise<SupportTicket> {
  await db.$queryRaw`SELECT id FROM "SupportTicket" WHERE id = ${id} FOR UPDATE`;
  const ticket = await db.supportTicket.findUnique({ where: { id } });
  if (!ticket) throw new NotFound(`No support ticket with id "${id}".`);
  return ticket;
}

export function assertOpen(ticket: SupportTicket): void {
  if (ticket.status === "closed") throw new Refused("ticket_closed", `Ticket ${ticket.id} is closed.`);
}

/** The ticket's short reference in mails and pages: its last eight characters. */
export function reference(ticket: Pick<SupportTicket, "id">): string {
  return `#${ticket.id.slice(-8).toUpperCase()}`;
}

/** Mails the shopper after commit (never on rollback), recorded as an EmailMessage of `kind`. */
export function mailShopper(ctx: ToolContext, ticket: SupportTicket, kind: "support_received" | "support_reply", lines: string[]): void {
  ctx.afterCommit(async () => {
    const subject = kind === "support_received" ? `Vi har modtaget din henvendelse ${reference(ticket)}` : `Svar på din henvendelse ${reference(ticket)}: ${ticket.subject}`;
    const message = { to: ticket.email, subject, text: lines.join("\n"), html: lines.map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "")).join("\n") };
    const sent = await ctx.collaborators.mailer.send(message);
    await ctx.collaborators.db.emailMessage.create({
      data: { to: ticket.email, subject, kind, orderId: ticket.orderId, transport: sent.transport, messageId: sent.messageId, createdAt: ctx.now() },
    });
  });
}
