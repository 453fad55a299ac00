// The one durable outbox for outbound webhooks: events are rows written in the transaction of the change they report,
// and a dispatcher in every process delivers them: at once after a local commit, on a NOTIFY from another process, and
// by polling (retries that fall due, events a crashed process left). A claim is a lease taken with FOR UPDATE SKIP
// LOCKED, so two processes never deliver one event at once, and a dead process's claim lapses.
import type { Database, Db } from "../db.ts";
import type { Logger } from "../log.ts";
import { postWebhook } from "./post.ts";
import { deliveryOutcome, inDeliverySpan, withTraceContext, type Span } from "./trace.ts";
import type { Signers } from "./signers.ts";

export const OUTBOX_CHANNEL = "shop_outbox";

export interface OutboxMessage {
  /** Event type, e.g. "order.paid". */
  type: string;
  url: string;
  /** The JSON body, fixed now: every attempt sends these bytes. */
  body: string;
  /** A registered signer's name and the key reference it signs with. */
  signer: string;
  keyRef: string;
  endpointId?: string | null;
}

/** Where an enqueue happens: a tool's context (its transaction, and effects that run after commit). */
export interface OutboxWriter {
  db: Db;
  afterCommit(effect: () => void): void;
}

export interface ClaimedEvent {
  id: string;
  type: string;
  url: string;
  body: string;
  signer: string;
  keyRef: string;
  endpointId: string | null;
  attempts: number;
  maxAttempts: number;
}

export type Outcome = "delivered" | "dead";

export interface OutboxOptions {
  database: Database;
  log: Logger;
  signers: Signers;
  /** Wait after failed attempt n (index n-1); an event gets one attempt more than there are delays. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  pollMs: number;
  allowLocal: boolean;
  /** How long a claim holds (longer than a delivery can take). */
  leaseMs?: number;
  /** Told when an event is delivered or has used up its attempts (endpoint bookkeeping). */
  onSettled?: (event: ClaimedEvent, outcome: Outcome) => Promise<void>;
  /** Told of every attempt once recorded (metrics): delivered, retry (failed, tried again later) or dead (failed for the last time). */
  onAttempt?: (outcome: Outcome | "retry", seconds: number) => void;
}

const BATCH = 20;
/** Settled events (and their attempts) are kept this long for the delivery log and resends, then pruned hourly. */
const RETAIN_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
const DB_NOW = `(now() AT TIME ZONE 'UTC')`;

export class Outbox {
  private readonly options: OutboxOptions;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private prunedAt = 0;
  private stopped = true;
  private shutdown = new AbortController();

  constructor(options: OutboxOptions) {
    this.options = options;
    // A claim outlives the longest delivery (the POST's timeout) with room to record it; a crashed claim lapses then.
    this.leaseMs = options.leaseMs ?? options.timeoutMs * 2 + 5_000;
  }

  /** The signers events may name; a door registers its own here (before its first event goes out). */
  get signers(): Signers {
    return this.options.signers;
  }

  get maxAttempts(): number {
    return this.options.retryDelaysMs.length + 1;
  }

  /** Writes the event in the caller's transaction and wakes the dispatchers once it commits; returns its id. */
  async enqueue(writer: OutboxWriter, message: OutboxMessage): Promise<string> {
    const event = await writer.db.outboxEvent.create({
      data: {
        type: message.type,
        url: message.url,
        body: message.body,
        signer: message.signer,
        keyRef: message.keyRef,
        endpointId: message.endpointId ?? null,
        maxAttempts: this.maxAttempts,
        nextAttemptAt: new Date(),
      },
      select: { id: true },
    });
    await this.notify(writer);
    return event.id;
  }

  /** After the writer's transaction commits, every process's dispatcher looks for due events (NOTIFY), this one at once. */
  async notify(writer: OutboxWriter): Promise<void> {
    await writer.db.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
    writer.afterCommit(() => this.wake());
  }

  /** Starts delivering: what is already due at once, then on every wake, NOTIFY and poll. */
  async start(): Promise<void> {
    this.stopped = false;
    this.shutdown = new AbortController();
    this.unlisten = await this.options.database.listen(OUTBOX_CHANNEL, () => this.wake());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Delivers what is due now (coalesced: a wake during a run makes the run look once more). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.drain().catch((error: unknown) => this.options.log.error("outbox dispatch failed", { error: String(error) }));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once the current run (if any) has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops claiming; deliveries in flight are aborted and handed back (not counted as attempts) for a later run. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.shutdown.abort();
    await this.unlisten?.();
    await this.idle();
  }

  private async drain(): Promise<void> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.options.database.query(
        `DELETE FROM "OutboxEvent" WHERE status <> 'pending' AND "createdAt" < ${DB_NOW} - $1::int * interval '1 day'`,
        [RETAIN_DAYS],
      );
    }
    for (;;) {
      if (this.stopped) return;
      const claimed = await this.claim();
      if (!claimed.length) return;
      await Promise.all(claimed.map((event) => inDeliverySpan(event, (span) => this.deliver(event, span))));
    }
  }

  /**
   * Leases are written and compared on the database's clock (one for every process); nextAttemptAt is written from the
   * process clock (enqueue, retry), so it is compared with this process's clock: a database clock running behind would
   * otherwise hold back the first attempt.
   */
  private claim(): Promise<ClaimedEvent[]> {
    return this.options.database.query<ClaimedEvent>(
      `UPDATE "OutboxEvent" SET "leaseUntil" = ${DB_NOW} + $1::int * interval '1 millisecond'
        WHERE id IN (
          SELECT id FROM "OutboxEvent"
           WHERE status = 'pending' AND "nextAttemptAt" <= ($2::timestamptz AT TIME ZONE 'UTC')
             AND ("leaseUntil" IS NULL OR "leaseUntil" < ${DB_NOW})
           ORDER BY "nextAttemptAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id, type, url, body, signer, "keyRef", "endpointId", attempts, "maxAttempts"`,
      [this.leaseMs, new Date().toISOString()],
    );
  }

  private async deliver(event: ClaimedEvent, span: Span | undefined): Promise<void> {
    const { database, log, signers, timeoutMs, allowLocal } = this.options;
    const startedAt = new Date();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const signer = signers.get(event.signer);
      if (!signer) throw new Error(`no signer named "${event.signer}"`);
      const headers = await signer.headers({ id: event.id, timestamp: startedAt, body: event.body, url: event.url, keyRef: event.keyRef });
      statusCode = await postWebhook(event.url, event.body, withTraceContext(headers), { timeoutMs, allowLocal, signal: this.shutdown.signal });
      if (statusCode < 200 || statusCode > 299) error = `the receiver answered ${statusCode}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    if (this.shutdown.signal.aborted && statusCode === null) {
      await database.query(`UPDATE "OutboxEvent" SET "leaseUntil" = NULL WHERE id = $1`, [event.id]);
      return;
    }
    deliveryOutcome(span, statusCode, error);
    const durationMs = Date.now() - startedAt.getTime();
    const number = event.attempts + 1;
    const ok = error === null;
    const dead = !ok && number >= event.maxAttempts;
    const delay = this.options.retryDelaysMs[Math.min(number, this.options.retryDelaysMs.length) - 1] ?? 0;
    const status = ok ? "delivered" : dead ? "dead" : "pending";
    await database.prisma.$transaction([
      database.prisma.outboxAttempt.create({ data: { eventId: event.id, number, startedAt, durationMs, statusCode, error: error?.slice(0, 1000) ?? null, ok } }),
      database.prisma.outboxEvent.updateMany({
        where: { id: event.id, status: "pending" },
        data: {
          attempts: number,
          status,
          leaseUntil: null,
          lastError: error?.slice(0, 1000) ?? null,
          lastStatusCode: statusCode,
          ...(ok ? { deliveredAt: new Date() } : {}),
          ...(status === "pending" ? { nextAttemptAt: new Date(Date.now() + delay) } : {}),
        },
      }),
    ]);
    this.options.onAttempt?.(ok ? "delivered" : dead ? "dead" : "retry", durationMs / 1000);
    const fields = { event: event.id, type: event.type, url: event.url, attempt: number, statusCode, durationMs };
    if (ok) log.info("webhook delivered", fields);
    else log.warn(dead ? "webhook dead after its last attempt" : "webhook attempt failed", { ...fields, error, ...(dead ? {} : { retryInMs: delay }) });
    if (ok || dead) await this.options.onSettled?.(event, ok ? "delivered" : "dead");
  }
}
