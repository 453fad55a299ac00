// support.reply: staff answer a ticket; the answer goes to the shopper by e-mail after commit.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { assertOpen, lockTicket, mailShopper, messageText, reference, ticketId } from "./tickets.ts";

export default defineTool({
  name: "support.reply",
  description: "Answer a support ticket by e-mail to the shopper; it becomes answered. Returns {ticketId, status}.",
  errors: [{ status: 422, code: "ticket_closed" }],
  input: z.strictObject({ ticketId, message: messageText.describe("The shopper reads it (Danish).") }),
  output: z.strictObject({ ticketId: z.string(), status: z.literal("answered") }),
  scope: "support:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ ticketId: "demo-ticket-1", message: "Vi sender de brune stel i dag; de sorte kan du sende retur med den vedlagte label." }],
  async handler(input, ctx) {
    const before = await lockTicket(ctx.db, input.ticketId);
    assertOpen(before);
    const now = ctx.now();
    await ctx.db.supportMessage.create({ data: { ticketId: before.id, from: "staff", author: ctx.caller.actor, body: input.message, createdAt: now } });
    const after = await ctx.db.supportTicket.update({ where: { id: before.id }, data: { status: "answered", updatedAt: now } });
    await ctx.audit({ subjectType: "support_ticket", subjectId: before.id, before, after });
    mailShopper(ctx, after, "support_reply", [input.message, "", `Svar gerne på denne mail, hvis du har spørgsmål. Reference: ${reference(after)}`]);
    return { ticketId: before.id, status: "answered" as const };
  },
});
