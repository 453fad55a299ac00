// orders.record_events: fulfilment events and adjustments recorded on an order from outside (a carrier, a UCP
// order update). Both lists are append-only: entries are kept by id, a repeated id is ignored. A shipped event moves
// the order to shipped through the ordinary status change, so order events fire.
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { orderId } from "./schemas.ts";
import { assertTransition, changeStatus, lockOrder, orderRow } from "./service.ts";

const when = z.iso.datetime({ offset: true });
const lineRefs = z.array(z.strictObject({ id: z.string().min(1).max(200), quantity: z.number().int().min(1).max(1_000_000) })).max(200);

export const fulfillmentEvent = z.strictObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(50).describe("shipped, in_transit, delivered, canceled …"),
  occurredAt: when,
  lineItems: lineRefs,
  trackingNumber: z.string().max(200).optional(),
  trackingUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  carrier: z.string().max(100).optional(),
  description: z.string().max(1000).optional(),
});
export const adjustment = z.strictObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(50).describe("refund, return, credit …"),
  occurredAt: when,
  status: z.enum(["pending", "completed", "failed"]),
  lineItems: lineRefs.optional(),
  amount: z.number().int().min(0).max(1e12).optional().describe("Minor units."),
  description: z.string().max(1000).optional(),
});
export type FulfillmentEvent = z.infer<typeof fulfillmentEvent>;
export type Adjustment = z.infer<typeof adjustment>;

export default defineTool({
  name: "orders.record_events",
  description:
    "Append fulfilment events and adjustments (refund, return …) to an order; ids already there are ignored. " +
    "A shipped event also moves the order to shipped (422 illegal_transition if not allowed). Returns both lists and the status.",
  input: z.strictObject({
    orderId,
    fulfillmentEvents: z.array(fulfillmentEvent).max(100).default([]),
    adjustments: z.array(adjustment).max(100).default([]),
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
  examples: [
    {
      orderId: "demo-order-17",
      fulfillmentEvents: [{ id: "evt_1", type: "shipped", occurredAt: "2026-03-02T08:00:00Z", lineItems: [{ id: "li_1", quantity: 1 }], trackingNumber: "TRACK123" }],
    },
  ],
  async handler({ orderId: id, fulfillmentEvents, adjustments }, ctx) {
    const order = await lockOrder(ctx.db, id);
    const events = appended(storedList(order.fulfillmentEvents, fulfillmentEvent), fulfillmentEvents);
    const adjusted = appended(storedList(order.adjustments, adjustment), adjustments);
    const shipped = events.added.find((event) => event.type === "shipped");
    const data: Prisma.OrderUpdateInput = { fulfillmentEvents: events.all, adjustments: adjusted.all };
    if (shipped?.carrier) data.carrier = shipped.carrier;
    if (shipped?.trackingNumber) data.trackingNumber = shipped.trackingNumber;
    if (shipped?.trackingUrl?.startsWith("https:")) data.trackingUrl = shipped.trackingUrl;
    let after;
    if (shipped && order.status !== "shipped" && order.status !== "delivered") {
      assertTransition(order, "shipped", "ship");
      after = await changeStatus(ctx, order, { to: "shipped", data });
    } else {
      after = await ctx.db.order.update({ where: { id }, data });
      await ctx.audit({ subjectType: "order", subjectId: id, before: orderRow(order), after });
    }
    return { id, status: after.status, fulfillmentEvents: events.all, adjustments: adjusted.all };
  },
});

/** A stored list read back under its schema (entries that no longer read are dropped). */
export function storedList<T extends z.ZodType>(value: unknown, schema: T): z.output<T>[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

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
