// orders.record_events: fulfilment events and adjustments recorded on an order from outside (a carrier, an agent
// protocol's order update). Both lists are append-only: entries are kept by id, a repeated id is ignored. A shipped event
// moves the order to shipped, a delivered one a shipped order to delivered, through the ordinary status change, so order
// events fire; the recording itself is announced too, with the new entries no status change stands for.
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { adjustment, fulfillmentEvent, storedList } from "./fulfillment-events.ts";
import { orderId } from "./schemas.ts";
import { assertTransition, changeStatus, lockOrder, orderRow } from "./order-writes.ts";

export default defineTool({
  name: "orders.record_events",
  description:
    "Append fulfilment events and adjustments to an order; a shipped event ships it, a delivered one delivers a " +
    "shipped order. Returns {id, status, fulfillmentEvents, adjustments}.",
  input: z.strictObject({
    orderId,
    fulfillmentEvents: z.array(fulfillmentEvent).optional().describe("e.g. shipped"),
    adjustments: z.array(adjustment).optional().describe("e.g. refund"),
  }),
  output: z.strictObject({
    id: z.string(),
    status: z.string(),
    fulfillmentEvents: z.array(fulfillmentEvent),
    adjustments: z.array(adjustment),
  }),
  scope: "orders:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ orderId: "demo-order-17", adjustments: [{ id: "adj_1", type: "refund", occurredAt: "2026-03-02T08:00:00Z", status: "pending", amount: 500 }] }],
  async handler({ orderId: id, fulfillmentEvents = [], adjustments = [] }, ctx) {
    const order = await lockOrder(ctx.db, id);
    const events = appended(storedList(order.fulfillmentEvents, fulfillmentEvent), fulfillmentEvents);
    const adjusted = appended(storedList(order.adjustments, adjustment), adjustments);
    const shipped = events.added.find((event) => event.type === "shipped");
    const data: Prisma.OrderUpdateInput = { fulfillmentEvents: events.all, adjustments: adjusted.all };
    if (shipped?.carrier) data.carrier = shipped.carrier;
    if (shipped?.trackingNumber) data.trackingNumber = shipped.trackingNumber;
    if (shipped?.trackingUrl?.startsWith("https:")) data.trackingUrl = shipped.trackingUrl;
    const delivered = events.added.find((event) => event.type === "delivered");
    let after;
    if (shipped && order.status !== "shipped" && order.status !== "delivered") {
      assertTransition(order, "shipped", "ship");
      after = await changeStatus(ctx, order, { to: "shipped", data });
    }
    if (delivered && (after ?? order).status === "shipped") {
      after = await changeStatus(ctx, after ? await lockOrder(ctx.db, id) : order, { to: "delivered", data: after ? {} : data });
    }
    const moved = after !== undefined;
    if (!after) {
      after = await ctx.db.order.update({ where: { id }, data });
      await ctx.audit({ subjectType: "order", subjectId: id, before: orderRow(order), after });
    }
    // A status change was announced already; anything else new (an adjustment, an in-transit event) is not reported yet.
    const told = new Set(moved ? [shipped, delivered] : []);
    const unreported = adjusted.added.length + events.added.filter((event) => !told.has(event)).length;
    await ctx.collaborators.orderEvents.announce(ctx, { type: "fulfilment_recorded", orderId: id, order: after, statusChanged: moved, unreported });
    return { id, status: after.status, fulfillmentEvents: events.all, adjustments: adjusted.all };
  },
});

function appended<T extends { id: string }>(stored: T[], given: T[]): { all: T[]; added: T[] } {
  const ids = new Set(stored.map((entry) => entry.id));
  const added: T[] = [];
  for (const entry of given) {
    if (ids.has(entry.id)) continue;
    ids.add(entry.id);
    added.push(entry);
  }
  return { all: [...stored, ...added], added };
}
