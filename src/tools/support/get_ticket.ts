// support.get_ticket: one ticket with its whole conversation, for the staff member answering it.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { TICKET_STATUSES, ticketId } from "./tickets.ts";

export default defineTool({
  name: "support.get_ticket",
  description:
    "One support ticket with its messages, oldest first. Returns {ticketId, subject, status, email, orderId, " +
    "customerId, messages, …}.",
  input: z.strictObject({ ticketId }),
  output: z.strictObject({
    ticketId: z.string(),
    subject: z.string(),
    status: z.enum(TICKET_STATUSES),
    email: z.string(),
    orderId: z.string().nullable(),
    customerId: z.string().nullable(),
    createdAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
    messages: z.array(z.strictObject({ from: z.enum(["shopper", "staff"]), author: z.string(), body: z.string(), createdAt: isoDateTime })),
  }),
  scope: "support:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ ticketId: "demo-ticket-1" }],
  async handler(input, ctx) {
    const ticket = await ctx.db.supportTicket.findUnique({ where: { id: input.ticketId }, include: { messages: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] } } });
    if (!ticket) throw new NotFound(`No support ticket with id "${input.ticketId}".`);
    return {
      ticketId: ticket.id,
      subject: ticket.subject,
      status: ticket.status as (typeof TICKET_STATUSES)[number],
      email: ticket.email,
      orderId: ticket.orderId,
      customerId: ticket.customerId,
      createdAt: ticket.createdAt.toISOString(),
      closedAt: ticket.closedAt?.toISOString() ?? null,
      messages: ticket.messages.map((m) => ({ from: m.from as "shopper" | "staff", author: m.author, body: m.body, createdAt: m.createdAt.toISOString() })),
    };
  },
});
