// Shared shapes of the webhooks area: event types, an endpoint and a delivery as the tools show them.
import { z } from "zod";

export const EVENT_TYPES = [
  "order.created",
  "order.paid",
  "order.shipped",
  "order.cancelled",
  "order.refunded",
  "order.updated",
  "return.requested",
  "product.updated",
  "stock.low",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only by webhooks.test, to the one endpoint tested. */
export const TEST_EVENT = "webhook.test";

export const eventList = z
  .array(z.enum(EVENT_TYPES, { error: (issue) => `Unknown event type "${String(issue.input)}"` }))
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, "Name each event type once")
  .describe("Event types.");

export const endpointId = z.string().min(1).max(100).describe("Endpoint id.");

export const endpointView = z.strictObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean().describe("False once disabled after repeated failure (webhooks.enable turns it back on)."),
  disabledAt: z.iso.datetime().nullable(),
  disabledReason: z.string().nullable(),
  failureStreak: z.number().int().min(0).describe("Events in a row that used up every retry; at the limit the endpoint is disabled."),
  createdAt: z.iso.datetime(),
});
export type EndpointView = z.infer<typeof endpointView>;

const attemptView = z.strictObject({
  number: z.number().int().min(1),
  startedAt: z.iso.datetime(),
  durationMs: z.number().int().min(0),
  statusCode: z.number().int().nullable().describe("The receiver's HTTP status, or null when it could not be reached."),
  error: z.string().nullable(),
  ok: z.boolean(),
});

export const deliveryView = z.strictObject({
  id: z.string().describe("The delivery's id: also the webhook-id header receivers deduplicate on; webhooks.resend takes it."),
  type: z.string(),
  status: z.enum(["pending", "delivered", "dead", "cancelled"]).describe("pending (waiting for its next attempt), delivered, dead (every attempt failed) or cancelled."),
  attempts: z.number().int().min(0),
  maxAttempts: z.number().int().min(1),
  nextAttemptAt: z.iso.datetime().nullable().describe("When a pending delivery is tried next, else null."),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  payload: z.unknown().describe("The body sent: {type, timestamp, data}."),
  tries: z.array(attemptView).describe("Every attempt, oldest first."),
});
export type DeliveryView = z.infer<typeof deliveryView>;
