// The one durable outbox for outbound webhooks: events are rows written in the transaction of the change they report,
// and a dispatcher in every process delivers them: at once after a local commit, on a NOTIFY from another process, and
// by polling (retries that fall due, events a crashed process left). A claim is a lease taken with FOR UPDATE SKIP
// LOCKED, so two processes never deliver one event at once, and a dead process's claim lapses. Each receiver (an
// integrator endpoint, else a URL) gets its events one at a time in the order they were made; different receivers get
// theirs side by side, up to a bound per process, so a slow or dead receiver delays no one else.
import crypto from "node:crypto";
import type { Database, Db } from "../db.ts";
import type { Logger } from "../log.ts";
import type { Resolve, Route } from "./address.ts";
import { postWebhook } from "./post.ts";
import { deliveryOutcome, inDeliverySpan, withTraceContext, type Span } from "./trace.ts";
import type { Signers } from "./signers.ts";

const OUTBOX_CHANNEL = "shop_outbox";

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
  /** False for a one-off (webhooks.test) that goes out at once, beside its receiver's queue rather than in it. */
  ordered?: boolean;
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
  receiver: string;
  seq: string;
  attempts: number;
  maxAttempts: number;
  /** Claimed after its retryUntil: a failure now is its last. */
  lastChance: boolean;
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
  /** Deliveries in flight at once in this process (each to another receiver); 32 unless given. */
  concurrency?: number;
  /** How long a claim holds (longer than a delivery can take). */
  leaseMs?: number;
  /** DNS and routing for deliveries (tests: a public address that leads to a local receiver); see post.ts. */
  resolve?: Resolve;
  route?: Route;
  /** Told when an event is delivered or has used up its attempts (endpoint bookkeeping). */
  onSettled?: (event: ClaimedEvent, outcome: Outcome) => Promise<void>;
  /** Told of every attempt once recorded (metrics): delivered, retry (failed, tried again later) or dead (failed for the last time). */
  onAttempt?: (outcome: Outcome | "retry", seconds: number) => void;
}

/** The queue an event waits in: its integrator endpoint's, else its URL's; a one-off has one of its own. */
function receiverOf(message: Pick<OutboxMessage, "url" | "endpointId" | "ordered">): string {
  if (message.ordered === false) return oneOffReceiver();
  return message.endpointId ? `endpoint:${message.endpointId}` : `url:${message.url}`;
}

/** A queue of one: for a one-off send, and for a resent delivery (an old event has no place in the order any more). */
export function oneOffReceiver(): string {
  return `once:${crypto.randomUUID()}`;
}

const CONCURRENCY = 32;
/** Settled events (and their attempts) are kept this long for the delivery log and resends, then pruned hourly. */
const RETAIN_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
const DB_NOW = `(now() AT TIME ZONE 'UTC')`;

export class Outbox {
  private readonly options: OutboxOptions;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private listening: Promise<void> | undefined;
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
    this.concurrency = Math.max(1, options.concurrency ?? CONCURRENCY);
  }

  /** The signers events may name; each door registers its own here before delivery starts (src/compose.ts). */
  get signers(): Signers {
    return this.options.signers;
  }

  get maxAttempts(): number {
    return this.options.retryDelaysMs.length + 1;
  }

  /**
   * Until when an event made (or resent) at `from` is retried: the retry schedule plus, per attempt, a timeout and a
   * poll of slack. An event that spent that long waiting behind its receiver's earlier events gets one attempt, so a
   * receiver that stays down does not collect events for ever.
   */
  retryUntil(from: Date): Date {
    const { retryDelaysMs, timeoutMs, pollMs } = this.options;
    const slack = this.maxAttempts * (timeoutMs + pollMs);
    return new Date(from.getTime() + retryDelaysMs.reduce((sum, delay) => sum + delay, 0) + slack);
  }

  /** Writes the event in the caller's transaction and wakes the dispatchers once it commits; returns its id. */
  async enqueue(writer: OutboxWriter, message: OutboxMessage): Promise<string> {
    const now = new Date();
    const event = await writer.db.outboxEvent.create({
      data: {
        type: message.type,
        url: message.url,
        body: message.body,
        signer: message.signer,
        keyRef: message.keyRef,
        endpointId: message.endpointId ?? null,
        receiver: receiverOf(message),
        maxAttempts: this.maxAttempts,
        nextAttemptAt: now,
        retryUntil: this.retryUntil(now),
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

  /**
   * Hears other processes' commits (LISTEN), which wake the dispatcher once it runs: a process listens while it is built
   * (so failing to is a failure to start) and starts delivering once its signers are registered. start() listens too.
   */
  listen(): Promise<void> {
    this.listening ??= this.options.database.listen(OUTBOX_CHANNEL, () => this.wake()).then(
      (unlisten) => {
        this.unlisten = unlisten;
      },
      (error: unknown) => {
        this.listening = undefined;
        throw error;
      },
    );
    return this.listening;
  }

  /** Starts delivering: what is already due at once, then on every wake, NOTIFY and poll; resolves once it listens. */
  start(): Promise<void> {
    this.stopped = false;
    this.shutdown = new AbortController();
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
    return this.listen();
  }

  /** Claims what is due now, up to the free delivery slots (coalesced: a wake during a claim makes it look once more). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.fill().catch((error: unknown) => this.options.log.error("outbox dispatch failed", { error: String(error) }));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once nothing is being claimed or delivered. */
  async idle(): Promise<void> {
    while (this.running || this.inFlight.size) await Promise.all([this.running, ...this.inFlight]);
  }

  /** Stops claiming; deliveries in flight are aborted and handed back (not counted as attempts) for a later run. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.shutdown.abort();
    await this.listening?.catch(() => undefined);
    this.listening = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.idle();
  }

  /** Starts a delivery in every free slot while there are due events; a delivery that ends wakes the dispatcher again. */
  private async fill(): Promise<void> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.options.database.query(
        `DELETE FROM "OutboxEvent" WHERE status <> 'pending' AND "createdAt" < ${DB_NOW} - $1::int * interval '1 day'`,
        [RETAIN_DAYS],
      );
    }
    for (;;) {
      if (this.stopped) return;
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const claimed = await this.claim(free);
      for (const event of claimed) this.launch(event);
      if (claimed.length < free) return;
    }
  }

  private launch(event: ClaimedEvent): void {
    const delivery: Promise<void> = inDeliverySpan(event, (span) => this.deliver(event, span))
      .catch((error: unknown) => this.options.log.error("webhook delivery failed", { event: event.id, error: String(error) }))
      .finally(() => {
        this.inFlight.delete(delivery);
        // A slot is free, and this receiver's next event may go now.
        this.wake();
      });
    this.inFlight.add(delivery);
  }

  /**
   * The due events that head their receiver's queue (no earlier event of that receiver still pending, which also
   * covers one in flight in any process), oldest due first. Leases are written and compared on the database's clock
   * (one for every process); nextAttemptAt is written from the process clock (enqueue, retry), so it is compared with
   * this process's clock: a database clock running behind would otherwise hold back the first attempt.
   */
  private claim(limit: number): Promise<ClaimedEvent[]> {
    return this.options.database.query<ClaimedEvent>(
      `UPDATE "OutboxEvent" SET "leaseUntil" = ${DB_NOW} + $1::int * interval '1 millisecond'
        WHERE id IN (
          SELECT e.id FROM "OutboxEvent" e
           WHERE e.status = 'pending' AND e."nextAttemptAt" <= ($2::timestamptz AT TIME ZONE 'UTC')
             AND (e."leaseUntil" IS NULL OR e."leaseUntil" < ${DB_NOW})
             AND NOT EXISTS (SELECT 1 FROM "OutboxEvent" b WHERE b.status = 'pending' AND b.receiver = e.receiver AND b.seq < e.seq)
           ORDER BY e."nextAttemptAt", e.seq LIMIT $3 FOR UPDATE OF e SKIP LOCKED)
        RETURNING id, type, url, body, signer, "keyRef", "endpointId", receiver, seq::text AS seq, attempts, "maxAttempts",
                  "retryUntil" <= ($2::timestamptz AT TIME ZONE 'UTC') AS "lastChance"`,
      [this.leaseMs, new Date().toISOString(), limit],
    );
  }

  private async deliver(event: ClaimedEvent, span: Span | undefined): Promise<void> {
    const { database, log, signers, timeoutMs, allowLocal, resolve, route } = this.options;
    const startedAt = new Date();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const signer = signers.get(event.signer);
      if (!signer) throw new Error(`no signer named "${event.signer}"`);
      const headers = await signer.headers({ id: event.id, timestamp: startedAt, body: event.body, url: event.url, keyRef: event.keyRef });
      statusCode = await postWebhook(event.url, event.body, withTraceContext(headers), { timeoutMs, allowLocal, resolve, route, signal: this.shutdown.signal });
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
    const dead = !ok && (number >= event.maxAttempts || event.lastChance);
    const delay = this.options.retryDelaysMs[Math.min(number, this.options.retryDelaysMs.length) - 1] ?? 0;
    const status = ok ? "delivered" : dead ? "dead" : "pending";
    const next = new Date(Date.now() + delay);
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
          ...(status === "pending" ? { nextAttemptAt: next } : {}),
        },
      }),
      // The receiver's later events wait for this one's retry; saying so keeps them out of every claim until then.
      ...(status === "pending"
        ? [database.prisma.outboxEvent.updateMany({ where: { status: "pending", receiver: event.receiver, seq: { gt: BigInt(event.seq) }, nextAttemptAt: { lt: next } }, data: { nextAttemptAt: next } })]
        : []),
    ]);
    this.options.onAttempt?.(ok ? "delivered" : dead ? "dead" : "retry", durationMs / 1000);
    const fields = { event: event.id, type: event.type, url: event.url, attempt: number, statusCode, durationMs };
    if (ok) log.info("webhook delivered", fields);
    else log.warn(dead ? "webhook dead after its last attempt" : "webhook attempt failed", { ...fields, error, ...(dead ? {} : { retryInMs: delay }) });
    if (ok || dead) await this.options.onSettled?.(event, ok ? "delivered" : "dead");
  }
}
