// support.create_ticket: hand a conversation to a person: the shopper's message (or the chat's summary), their e-mail and order.
import { z } from "zod";
import { NotFound, Refused } from "../../core/errors.ts";
import { orderRef } from "../shared/order-numbers.ts";
import { hasScope } from "../scopes.ts";
import { defineTool, WRITE } from "../tool.ts";
import { mailShopper, messageText, reference } from "./tickets.ts";

export default defineTool({
  name: "support.create_ticket",
  description:
    "Hand the shopper to a person when they ask for one or dispute a refusal: opens a ticket staff answer by e-mail " +
    "(email defaults to the customer's or order's). Returns {ticketId, status}.",
  errors: [
    { status: 422, code: "email_required", when: "no email given or known" },
    { status: 404, when: "an orderId not the shopper's own" },
  ],
  input: z.strictObject({
    subject: z.string().trim().min(3).max(200).describe("E.g. \"Forkert farve leveret\"."),
    message: messageText.describe("The request in the shopper's words; what was tried."),
    orderId: z.string().min(1).max(200).optional().describe("The order it concerns."),
    email: z.email().max(254).optional().describe("Where staff reply."),
  }),
  output: z.strictObject({ ticketId: z.string(), status: z.literal("open") }),
  scope: "support:write",
  anonymous: true,
  audited: true,
  annotations: WRITE,
  examples: [{ subject: "Forkert farve leveret", message: "Jeg fik de sorte stel, men bestilte de brune.", orderId: "demo-order-03", email: "sofie.pedersen@example.dk" }],
  async handler(input, ctx) {
    const { caller } = ctx;
    const staff = caller.kind !== "session" && caller.kind !== "anonymous" && hasScope(caller.scopes, "support:write");
    const session = caller.session;
    const customer = session?.customerId ? await ctx.db.customer.findUnique({ where: { id: session.customerId } }) : null;
    let orderEmail: string | null = null;
    let orderNumber: number | null = null;
    if (input.orderId) {
      const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { number: true, email: true, userId: true, sessionId: true } });
      const own = order && (staff || (session && (order.sessionId === session.id || (customer !== null && order.userId === customer.id))));
      if (!order || !own) throw new NotFound(`No order with id "${input.orderId}".`);
      orderEmail = order.email || null;
      orderNumber = order.number;
    }
    const email = (input.email ?? customer?.email ?? orderEmail)?.toLowerCase();
    if (!email) throw new Refused("email_required", "Give the e-mail address staff should reply to.");
    const now = ctx.now();
    const ticket = await ctx.db.supportTicket.create({
      data: {
        subject: input.subject,
        email,
        customerId: customer?.id ?? null,
        orderId: input.orderId ?? null,
        sessionId: session?.persistent ? session.id : null,
        openedBy: caller.actor,
        createdAt: now,
        updatedAt: now,
        messages: { create: { from: staff ? "staff" : "shopper", author: caller.actor, body: input.message, createdAt: now } },
      },
    });
    await ctx.audit({ subjectType: "support_ticket", subjectId: ticket.id, before: null, after: ticket });
    mailShopper(ctx, ticket, "support_received", [
      `Tak for din henvendelse om "${ticket.subject}". Vi svarer på denne adresse så hurtigt, vi kan.`,
      "",
      `Din henvendelse: ${input.message}`,
      "",
      ...(orderNumber === null ? [] : [`Ordre: ${orderRef(orderNumber)}`]),
      `Reference: ${reference(ticket)}`,
    ]);
    return { ticketId: ticket.id, status: "open" as const };
  },
});
