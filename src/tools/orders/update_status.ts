// orders.update_status: move an order to another status along DESIGN.md's legal transitions.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { orderId } from "./schemas.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { assertTransition, changeStatus, lockOrder } from "./order-writes.ts";
import { recordRefund, refundAll } from "../money/refunds.ts";
import { dropOutstanding } from "../money/collect.ts";
import { ORDER_TRANSITIONS, orderStatus } from "./transitions.ts";

const transitions = Object.entries(ORDER_TRANSITIONS);
const legal = transitions
  .map(([from, to]) => [from, to.filter((status) => status !== from)] as const)
  .filter(([, to]) => to.length)
  .map(([from, to]) => `${from}→${to.join("/")}`)
  .join("; ");
const final = transitions.filter(([, to]) => !to.length).map(([from]) => from).join(" and ");

export default defineTool({
  name: "orders.update_status",
  description:
    `Set an order's status. Moves: ${legal}; ${final} final. paid sends an unsent confirmation (a bank transfer ` +
    "received); cancelled restocks and refunds; refunded records the whole total (part: orders.refund). Returns {id, status}.",
  errors: [
    { status: 422, code: "illegal_transition", when: "any other move, or to the current status" },
    { status: 422, code: "payment_outstanding", when: "shipped while money is still to be paid" },
  ],
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
    let data: Prisma.OrderUpdateInput | undefined;
    if (input.status === "refunded") {
      assertTransition(order, "refunded");
      // What was still to collect was never paid: nothing of it is refunded.
      const outstanding = order.outstandingDkk;
      await dropOutstanding(ctx, order);
      data = { refundedDkk: order.totalDkk - outstanding };
      await recordRefund(ctx, order, order.totalDkk - outstanding - order.refundedDkk);
    } else if (input.status === "cancelled") {
      assertTransition(order, "cancelled");
      await dropOutstanding(ctx, order);
      // A paid order cancelled here is refunded to where the money came from, as orders.cancel does by default.
      const returned = await refundAll(ctx, order, { to: "original" }, null);
      if (returned.amountDkk > 0n) data = { refundedDkk: order.refundedDkk + returned.amountDkk };
    }
    const after = await changeStatus(ctx, order, { to: input.status, ...(data && { data }) });
    return { id: after.id, status: input.status };
  },
});
