// orders.set_tracking: carrier, tracking number and link, estimated delivery window; optionally mark shipped.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { iso } from "../../core/json.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { orderId } from "./schemas.ts";
import { assertTransition, changeStatus, lockOrder, orderRow } from "./order-writes.ts";

const when = z.iso.datetime({ offset: true });

export default defineTool({
  name: "orders.set_tracking",
  description:
    "Set an order's tracking and delivery window; omitted fields stay. Returns {id, status, carrier, tracking*, " +
    "estDelivery*}.",
  errors: [
    { status: 422, code: "illegal_transition", when: "markShipped on an order that cannot ship" },
    { status: 422, code: "payment_outstanding", when: "markShipped while money is still to be paid" },
    { status: 422, code: "invalid_delivery_window" },
  ],
  input: z
    .strictObject({
      orderId,
      carrier: z.string().trim().min(1).max(100).optional().describe("E.g. \"PostNord\"."),
      trackingNumber: z.string().trim().min(1).max(100).optional().describe("Tracking number."),
      trackingUrl: z.url({ protocol: /^https$/ }).max(2000).optional().describe("Tracking page (https)."),
      estDeliveryFrom: when.optional().describe("Earliest expected delivery."),
      estDeliveryTo: when.optional().describe("Latest expected delivery."),
      markShipped: z.boolean().default(false).describe("Also mark it shipped."),
    })
    .refine((v) => !v.estDeliveryFrom || !v.estDeliveryTo || new Date(v.estDeliveryFrom) <= new Date(v.estDeliveryTo), {
      message: "estDeliveryFrom must not be after estDeliveryTo",
      path: ["estDeliveryTo"],
    }),
  output: z.strictObject({
    id: z.string(),
    status: z.string().describe("The order's status after the change."),
    carrier: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    trackingUrl: z.string().nullable(),
    estDeliveryFrom: z.iso.datetime().nullable(),
    estDeliveryTo: z.iso.datetime().nullable(),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ orderId: "demo-order-17", carrier: "PostNord", trackingNumber: "00370712345678901234", markShipped: true }],
  async handler({ orderId: id, markShipped, ...fields }, ctx) {
    const order = await lockOrder(ctx.db, id);
    const data = {
      ...(fields.carrier !== undefined && { carrier: fields.carrier }),
      ...(fields.trackingNumber !== undefined && { trackingNumber: fields.trackingNumber }),
      ...(fields.trackingUrl !== undefined && { trackingUrl: fields.trackingUrl }),
      ...(fields.estDeliveryFrom !== undefined && { estDeliveryFrom: new Date(fields.estDeliveryFrom) }),
      ...(fields.estDeliveryTo !== undefined && { estDeliveryTo: new Date(fields.estDeliveryTo) }),
    };
    const from = data.estDeliveryFrom ?? order.estDeliveryFrom;
    const to = data.estDeliveryTo ?? order.estDeliveryTo;
    if (from && to && from > to) {
      throw new Refused("invalid_delivery_window", `The delivery window would end (${to.toISOString()}) before it starts (${from.toISOString()}).`);
    }
    let after;
    if (markShipped) {
      assertTransition(order, "shipped", "ship");
      after = await changeStatus(ctx, order, { to: "shipped", data });
    } else {
      after = await ctx.db.order.update({ where: { id }, data });
      await ctx.audit({ subjectType: "order", subjectId: id, before: orderRow(order), after });
      // Marked shipped, the status change is announced instead.
      await ctx.collaborators.orderEvents.announce(ctx, { type: "tracking_set", orderId: id, order: after });
    }
    return {
      id,
      status: after.status,
      carrier: after.carrier,
      trackingNumber: after.trackingNumber,
      trackingUrl: after.trackingUrl,
      estDeliveryFrom: iso(after.estDeliveryFrom),
      estDeliveryTo: iso(after.estDeliveryTo),
    };
  },
});
