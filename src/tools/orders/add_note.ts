// orders.add_note: an internal staff note on an order (never shown to the customer).
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, WRITE } from "../tool.ts";
import { orderId } from "./schemas.ts";

export default defineTool({
  name: "orders.add_note",
  description:
    "Add an internal note to an order (never shown to the customer). Returns {id, orderId, body, author, createdAt}.",
  input: z.strictObject({
    orderId,
    body: z.string().trim().min(1).max(2000).describe("The note text."),
  }),
  output: z.strictObject({
    id: z.string(),
    orderId: z.string(),
    body: z.string(),
    author: z.string().describe("Who wrote it: \"key:<id>\", \"session:<id>\" or \"system:<name>\"."),
    createdAt: isoDateTime,
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ orderId: "demo-order-19", body: "Kunden ringede: levering efter kl. 16." }],
  async handler(input, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id: input.orderId }, select: { id: true } });
    if (!order) throw new NotFound(`No order with id "${input.orderId}".`);
    const note = await ctx.db.orderNote.create({
      data: { orderId: order.id, body: input.body, author: ctx.caller.actor, createdAt: ctx.now() },
    });
    await ctx.audit({ subjectType: "orderNote", subjectId: note.id, before: null, after: note });
    return { id: note.id, orderId: note.orderId, body: note.body, author: note.author, createdAt: note.createdAt.toISOString() };
  },
});
