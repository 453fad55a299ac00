// support.close: a ticket is done; it leaves the queue (and can be read still).
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { assertOpen, lockTicket, ticketId } from "./tickets.ts";

export default defineTool({
  name: "support.close",
  description: "Close a support ticket that needs nothing more. Returns {ticketId, status}.",
  errors: [{ status: 422, code: "ticket_closed" }],
  input: z.strictObject({ ticketId }),
  output: z.strictObject({ ticketId: z.string(), status: z.literal("closed") }),
  scope: "support:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ ticketId: "demo-ticket-2" }],
  async handler(input, ctx) {
    const before = await lockTicket(ctx.db, input.ticketId);
    assertOpen(before);
    const now = ctx.now();
    const after = await ctx.db.supportTicket.update({ where: { id: before.id }, data: { status: "closed", closedAt: now, updatedAt: now } });
    await ctx.audit({ subjectType: "support_ticket", subjectId: before.id, before, after });
    return { ticketId: before.id, status: "closed" as const };
  },
});
