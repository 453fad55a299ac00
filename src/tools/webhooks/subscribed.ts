// Which event types some enabled endpoint subscribes to, as this process last read it: every sale announces events,
// and most shops have no endpoint for most types, so a process answers "nobody listens" from memory and reads the
// endpoints only for a type someone subscribed to. It forgets on any change of an endpoint (a trigger notifies every
// process, migration 20261205500000_settings_webhooks_notify), on the commit of a tool that adds a subscription, and
// after REREAD_MS at the latest. A stale "someone listens" costs one read; a stale "nobody" lasts until the notice.
import type { Database, Db } from "../../core/db.ts";
import { NotifiedMemo } from "../../core/notified-memo.ts";
import type { ChangeScope } from "../change-scope.ts";

const ENDPOINTS_CHANNEL = "shop_webhook_endpoints";
const REREAD_MS = 10_000;

export class SubscribedTypes {
  private readonly memo: NotifiedMemo<"types", Set<string>>;

  constructor(database: Pick<Database, "listen">) {
    this.memo = new NotifiedMemo(database, ENDPOINTS_CHANNEL, REREAD_MS);
  }

  start(): Promise<void> {
    return this.memo.start();
  }

  stop(): Promise<void> {
    return this.memo.stop();
  }

  forget(): void {
    this.memo.forget();
  }

  /** Whether an enabled endpoint subscribes to `type`; a miss reads through `db` (the asking transaction). */
  async has(db: Db, type: string): Promise<boolean> {
    const types = await this.memo.get("types", async () => {
      const rows = await db.$queryRaw<Array<{ type: string }>>`SELECT DISTINCT unnest(events) AS type FROM "WebhookEndpoint" WHERE "disabledAt" IS NULL`;
      return new Set(rows.map((row) => row.type));
    });
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
