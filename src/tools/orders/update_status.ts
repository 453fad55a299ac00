// orders.update_status: move an order to another status along DESIGN.md's legal transitions.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { orderId } from "./schemas.ts";
import { changeStatus, lockOrder } from "./service.ts";
import { ORDER_TRANSITIONS, orderStatus } from "./transitions.ts";

const legal = Object.entries(ORDER_TRANSITIONS)
  .map(([from, to]) => `${from} → ${to.length ? to.join("/") : "nothing"}`)
  .join("; ");

export default defineTool({
  name: "orders.update_status",
  description:
    `Set an order's status. Only legal transitions are accepted (${legal}); anything else, including the current status, is ` +
    "refused with 422 illegal_transition. Moving to paid stamps paidAt and sends the order confirmation e-mail if none was " +
    "sent (e.g. a bank transfer received); cancelled restocks the items; refunded records the full total as refunded (use " +
    "orders.refund for amounts, orders.cancel to give a reason). Returns {id, status}.",
  input: z.strictObject({
    orderId,
    status: orderStatus.describe("The new status."),
  }),
  output: z.strictObject({ id: z.string(), status: orderStatus }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ orderId: "demo-order-16", status: "processing" }],
  async handler(input, ctx) {
    const order = await lockOrder(ctx.db, input.orderId);
    if (order.status === input.status) {
      throw new Refused("illegal_transition", `Order ${order.id} is already "${order.status}"; the transition to "${input.status}" changes nothing.`);
    }
    const data = input.status === "refunded" ? { refundedDkk: order.totalDkk } : undefined;
    const after = await changeStatus(ctx, order, { to: input.status, ...(data && { data }) });
    return { id: after.id, status: input.status };
  },
});
