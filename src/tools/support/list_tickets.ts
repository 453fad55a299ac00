// support.list_tickets: the staff queue, open tickets first by default.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { TICKET_STATUSES, ticketSummary, toSummary } from "./tickets.ts";

export default defineTool({
  name: "support.list_tickets",
  description:
    "The support queue, last changed first. Returns [{ticketId, subject, status, email, orderId, messageCount, " +
    "updatedAt, …}].",
  input: z.strictObject({ status: z.enum(TICKET_STATUSES).optional().describe("Default open."), limit: limit(100, 50) }),
  output: z.array(ticketSummary),
  scope: "support:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "answered", limit: 10 }],
  async handler(input, ctx) {
    const tickets = await ctx.db.supportTicket.findMany({
      where: { status: input.status ?? "open" },
      include: { _count: { select: { messages: true } } },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: input.limit,
    });
    return tickets.map(toSummary);
  },
});
