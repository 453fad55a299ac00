// The fulfilment events and adjustments an order keeps (orders.record_events writes them; checkout.get_order shows them).
import { z } from "zod";

// One entry shape for both lists (so MCP's listing defines it once): events carry tracking, adjustments a status and amount.
// Inner fields carry no length limits of their own (the listing budget); the request body limit bounds them.
const entry = z.strictObject({
  id: z.string().max(200),
  type: z.string(),
  occurredAt: z.iso.datetime({ offset: true }),
  status: z.enum(["pending", "completed", "failed"]).optional(),
  lineItems: z.array(z.strictObject({ id: z.string(), quantity: z.int().min(1) })).optional(),
  amount: z.int().min(0).optional(),
  trackingNumber: z.string().optional(),
  trackingUrl: z.url().optional(),
  carrier: z.string().optional(),
  description: z.string().optional(),
});
export const fulfillmentEvent = entry.refine((value) => value.lineItems !== undefined && value.status === undefined && value.amount === undefined, {
  message: "a fulfilment event has lineItems and no status or amount",
});
export const adjustment = entry.refine((value) => value.status !== undefined && value.trackingNumber === undefined && value.trackingUrl === undefined && value.carrier === undefined, {
  message: "an adjustment has a status and no tracking",
});

/** A stored list read back under its schema (entries that no longer read are dropped). */
export function storedList<T extends z.ZodType>(value: unknown, schema: T): z.output<T>[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

