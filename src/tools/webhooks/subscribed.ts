// Which event types some enabled endpoint subscribes to, as this process last read it: every sale announces events,
// and most shops have no endpoint for most types, so a process answers "nobody listens" from memory and reads the
// endpoints only for a type someone subscribed to. It forgets on any change of an endpoint (a trigger notifies every
// process, migration 20261205500000_settings_webhooks_notify), on the commit of a tool that adds a subscription, and
// after REREAD_MS at the latest. A stale "someone listens" costs one read; a stale "nobody" lasts until the notice.
import type { Database, Db } from "../../core/db.ts";
import type { ChangeScope } from "../change-scope.ts";

const ENDPOINTS_CHANNEL = "shop_webhook_endpoints";
const REREAD_MS = 10_000;

export class SubscribedTypes {
  /** Only a finished read is kept: a transaction never waits for a read on another connection (see setting-rows.ts). */
  private types: Set<string> | undefined;
  /** Counts forgets: a read that started before one is not kept. */
  private generation = 0;
  private readAt = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly database: Pick<Database, "listen">;

  constructor(database: Pick<Database, "listen">) {
    this.database = database;
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(ENDPOINTS_CHANNEL, () => this.forget());
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
  }

  forget(): void {
    this.types = undefined;
    this.generation++;
  }

  /** Whether an enabled endpoint subscribes to `type`; a miss reads through `db` (the asking transaction). */
  async has(db: Db, type: string): Promise<boolean> {
    if (Date.now() - this.readAt >= REREAD_MS) this.forget();
    if (this.types) return this.types.has(type);
    const generation = this.generation;
    const rows = await db.$queryRaw<Array<{ type: string }>>`SELECT DISTINCT unnest(events) AS type FROM "WebhookEndpoint" WHERE "disabledAt" IS NULL`;
    const types = new Set(rows.map((row) => row.type));
    if (generation === this.generation) {
      this.types = types;
      this.readAt = Date.now();
    }
    return types.has(type);
  }
}

/** The process's answer, by the clients that may use it: the shared client and the executor's transactions. */
const kept = new WeakMap<Db, SubscribedTypes>();

export function keepSubscribedTypes(db: Db, types: SubscribedTypes): void {
  kept.set(db, types);
}

/** A transaction on `parent` uses what `parent` uses. */
export function shareSubscribedTypes(tx: Db, parent: Db): void {
  const types = kept.get(parent);
  if (types) kept.set(tx, types);
}

/** False only when the process knows no enabled endpoint subscribes to `type` (unknown: true). */
export function mayHaveSubscribers(db: Db, type: string): Promise<boolean> {
  return kept.get(db)?.has(db, type) ?? Promise.resolve(true);
}

/** A tool added a subscription (an endpoint created or enabled): this process forgets on commit, before it answers. */
export function subscriptionsChanged(ctx: ChangeScope): void {
  const types = kept.get(ctx.db);
  if (types) ctx.afterCommit(() => types.forget());
}
