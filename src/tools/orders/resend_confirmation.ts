// orders.resend_confirmation: send the order confirmation e-mail again, after commit, and report whether it went out.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool } from "../tool.ts";
import { orderId } from "./schemas.ts";
import { confirmAfterCommit, lockOrder, orderRow } from "./order-writes.ts";

export default defineTool({
  name: "orders.resend_confirmation",
  description:
    "Send the order confirmation again, e.g. when the customer cannot find it. Returns {id, to, sent, " +
    "confirmationEmailSentAt}.",
  errors: [{ status: 422, code: "order_not_paid" }],
  input: z.strictObject({ orderId }),
  output: z.strictObject({
    id: z.string(),
    to: z.string().describe("The address the confirmation was sent to."),
    sent: z.boolean().describe("True when the mail was handed to the mail server (or outbox)."),
    confirmationEmailSentAt: z.iso.datetime().nullable().describe("When a confirmation was last sent, or null if never."),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  examples: [{ orderId: "demo-order-15" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    if (!order.paidAt) throw new Refused("order_not_paid", `Order ${order.id} is not paid (status "${order.status}"); a confirmation is sent once it is.`);
    await ctx.audit({ subjectType: "order", subjectId: order.id, before: orderRow(order), after: orderRow(order) });
    const result = { id: order.id, to: order.email, sent: false, confirmationEmailSentAt: order.confirmationEmailSentAt?.toISOString() ?? null };
    // The executor runs after-commit effects before it answers, so the effect can fill in the outcome of the send.
    confirmAfterCommit(ctx, order.id, (sentAt) => {
      if (!sentAt) return;
      result.sent = true;
      result.confirmationEmailSentAt = sentAt.toISOString();
    });
    return result;
  },
});
