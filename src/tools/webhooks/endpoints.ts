// Shared logic of the webhooks area: endpoints and their secrets, turning domain events into outbox rows in the
// caller's transaction, and the bookkeeping that disables an endpoint after repeated failure.
import crypto from "node:crypto";
import type { Db, Prisma } from "../../core/db.ts";
import { NotFound, Refused } from "../../core/errors.ts";
import type { Logger } from "../../core/log.ts";
import { receiverProblem } from "../../core/outbox/address.ts";
import type { ClaimedEvent, Outbox, OutboxWriter, Outcome } from "../../core/outbox/outbox.ts";
import { STANDARD_WEBHOOKS } from "../../core/outbox/standard-webhooks.ts";
import type { OutboxEvent, OutboxAttempt, WebhookEndpoint } from "../../generated/prisma/client.ts";
import type { DeliveryView, EndpointView, EventType } from "./schemas.ts";
import { mayHaveSubscribers } from "./subscribed.ts";

const KEY_PREFIX = "webhook-endpoint:";

const endpointKeyRef = (id: string) => `${KEY_PREFIX}${id}`;

/** A new Standard Webhooks secret: "whsec_" and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64")}`;
}

/** The signing secret behind a key reference of an endpoint (null once the endpoint is gone). */
export async function endpointSecret(db: Db, keyRef: string): Promise<string | null> {
  if (!keyRef.startsWith(KEY_PREFIX)) return null;
  const row = await db.webhookEndpoint.findUnique({ where: { id: keyRef.slice(KEY_PREFIX.length) }, select: { secret: true } });
  return row?.secret ?? null;
}

/** 422 receiver_not_allowed unless the URL is an http(s) URL of a public address (or WEBHOOKS_ALLOW_LOCAL=1). */
export async function checkReceiver(url: string, allowLocal: boolean): Promise<void> {
  const problem = await receiverProblem(url, allowLocal);
  if (problem) throw new Refused("receiver_not_allowed", `The webhook URL ${problem}; receivers must be reachable on a public address.`);
}

export function describeEndpoint(row: WebhookEndpoint): EndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.disabledAt === null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    failureStreak: row.failureStreak,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The endpoint row without its secret (audit snapshots). */
export function endpointSnapshot(row: WebhookEndpoint): Omit<WebhookEndpoint, "secret"> {
  const { secret: _secret, ...rest } = row;
  return rest;
}

export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpoint> {
  const row = await db.webhookEndpoint.findUnique({ where: { id } });
  if (!row) throw new NotFound(`No webhook endpoint with id "${id}".`);
  return row;
}

export function describeDelivery(row: OutboxEvent & { tries: OutboxAttempt[] }): DeliveryView {
  return {
    id: row.id,
    type: row.type,
    status: row.status as DeliveryView["status"],
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    payload: JSON.parse(row.body) as unknown,
    tries: row.tries.map((attempt) => ({
      number: attempt.number,
      startedAt: attempt.startedAt.toISOString(),
      durationMs: attempt.durationMs,
      statusCode: attempt.statusCode,
      error: attempt.error,
      ok: attempt.ok,
    })),
  };
}

/** The Standard Webhooks payload: {type, timestamp, data}. */
export function payloadOf(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** What writing events needs of a call: every ToolContext is one, and so is an order-event subscriber's scope. */
interface EventWriter extends OutboxWriter {
  now(): Date;
  collaborators: { outbox: Outbox };
}

/**
 * Queues one signed message to one endpoint in the caller's transaction; returns the delivery id. A one-off (the test
 * event) goes out at once instead of waiting its turn in the endpoint's queue.
 */
export function enqueueTo(ctx: EventWriter, endpoint: WebhookEndpoint, type: string, body: string, ordered = true): Promise<string> {
  return ctx.collaborators.outbox.enqueue(ctx, { type, url: endpoint.url, body, signer: STANDARD_WEBHOOKS, keyRef: endpointKeyRef(endpoint.id), endpointId: endpoint.id, ordered });
}

/**
 * Reports a domain event to every enabled endpoint that subscribed to its type, in the caller's transaction: the
 * messages commit (or roll back) with the change, and go out after commit.
 */
export function emitEvent(ctx: EventWriter, type: EventType, data: unknown): Promise<void> {
  return emitEvents(ctx, type, [data]);
}

/** Several events of one type (a bulk change), one message each, looking up the subscribed endpoints once. */
export async function emitEvents(ctx: EventWriter, type: EventType, data: readonly unknown[]): Promise<void> {
  if (!data.length || !(await mayHaveSubscribers(ctx.db, type))) return;
  const endpoints = await ctx.db.webhookEndpoint.findMany({ where: { disabledAt: null, events: { has: type } }, orderBy: { createdAt: "asc" } });
  for (const item of data) {
    const body = payloadOf(type, ctx.now(), item);
    for (const endpoint of endpoints) await enqueueTo(ctx, endpoint, type, body);
  }
}

/**
 * After a delivery settles: a delivered event clears the endpoint's failure streak; an event that used up every retry
 * lengthens it, and at `disableAfter` the endpoint is disabled and its waiting deliveries cancelled.
 */
export function settleEndpoint(prisma: Prisma, disableAfter: number, log: Logger) {
  return async (event: ClaimedEvent, outcome: Outcome): Promise<void> => {
    const endpointId = event.endpointId;
    if (!endpointId) return;
    if (outcome === "delivered") {
      await prisma.webhookEndpoint.updateMany({ where: { id: endpointId, failureStreak: { gt: 0 } }, data: { failureStreak: 0 } });
      return;
    }
    // One transaction holding the endpoint's row: the streak, the disabling and the cancelled deliveries go together.
    const disabled = await prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ failureStreak: number; disabledAt: Date | null }>>`
        SELECT "failureStreak", "disabledAt" FROM "WebhookEndpoint" WHERE id = ${endpointId} FOR UPDATE`;
      if (!row) return null;
      const failureStreak = row.failureStreak + 1;
      const disable = row.disabledAt === null && failureStreak >= disableAfter;
      const data = disable ? { failureStreak, disabledAt: new Date(), disabledReason: `${failureStreak} events in a row were not delivered after every retry.` } : { failureStreak };
      const after = await tx.webhookEndpoint.update({ where: { id: endpointId }, data });
      if (!disable) return null;
      await tx.outboxEvent.updateMany({ where: { endpointId, status: "pending" }, data: { status: "cancelled", leaseUntil: null } });
      return after;
    });
    if (disabled) log.warn("webhook endpoint disabled after repeated failure", { endpoint: disabled.id, url: disabled.url, failureStreak: disabled.failureStreak });
  };
}
