// The feature flags as this process last read them: a chat turn (and the assistants' status) asks on every call, and a
// flag changes a few times a year. A trigger on FeatureFlag notifies every process of every change, whoever makes it
// (migration 20261125090000_feature_flag_notify); the writing process also forgets on commit, before it answers, since
// its own notice may arrive a moment after that. A re-read at least every REREAD_MS bounds what a lost LISTEN
// connection could leave stale.
import type { Database } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";
import { DEFAULT_FEATURES } from "./defaults.ts";
import type { ChangeScope } from "../change-scope.ts";

const FLAGS_CHANNEL = "shop_feature_flags";
const REREAD_MS = 10_000;

export class FeatureFlags {
  private flags: Promise<Map<string, boolean>> | undefined;
  private readAt = 0;
  private stopListening: (() => Promise<void>) | undefined;

  private readonly database: Pick<Database, "query" | "listen">;
  private readonly log: Logger;

  constructor(database: Pick<Database, "query" | "listen">, log: Logger) {
    this.database = database;
    this.log = log;
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(FLAGS_CHANNEL, () => this.forget());
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
  }

  /** Whether a flag is on; a flag that was never stored reads as its default (unknown flags are off). */
  async enabled(key: string): Promise<boolean> {
    const flags = await this.current();
    return flags.get(key) ?? DEFAULT_FEATURES.find((feature) => feature.key === key)?.enabled ?? false;
  }

  /** Declares a flag change inside a write tool's transaction: this process forgets the flags on commit. */
  changed(ctx: ChangeScope): void {
    ctx.afterCommit(() => this.forget());
  }

  /** The next ask reads the flags again (a read still under way answers those already waiting for it). */
  forget(): void {
    this.flags = undefined;
  }

  private current(): Promise<Map<string, boolean>> {
    if (this.flags && Date.now() - this.readAt < REREAD_MS) return this.flags;
    const read = this.database.query<{ key: string; enabled: boolean }>(`SELECT "key", "enabled" FROM "FeatureFlag"`).then((rows) => new Map(rows.map((row) => [row.key, row.enabled])));
    this.flags = read;
    this.readAt = Date.now();
    // A failed read is not kept: the next ask tries again.
    read.catch((error: unknown) => {
      if (this.flags === read) this.flags = undefined;
      this.log.warn("feature flags not read", { error: String(error) });
    });
    return read;
  }
}
