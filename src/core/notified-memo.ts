// A process's memo of rows that change rarely (settings, webhook subscriptions). It is cleared by a NOTIFY on its
// channel (a trigger on the table notifies every process, whoever writes), by the writing process on its own commit,
// and after `maxAgeMs` at the latest, which bounds what a lost LISTEN connection could leave stale. Only a read that
// finished with no clear in between is kept, so a clear never loses to a read that was already under way.
import type { Database } from "./db.ts";

export class NotifiedMemo<K, V> {
  private values = new Map<K, V>();
  /** Counts clears: a read that started before one is not kept. */
  private generation = 0;
  private clearedAt = Date.now();
  private stopListening: (() => Promise<void>) | undefined;
  private readonly database: Pick<Database, "listen">;
  private readonly channel: string;
  private readonly maxAgeMs: number;

  constructor(database: Pick<Database, "listen">, channel: string, maxAgeMs: number) {
    this.database = database;
    this.channel = channel;
    this.maxAgeMs = maxAgeMs;
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(this.channel, () => this.forget());
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
  }

  /** Everything is read again at its next use. */
  forget(): void {
    this.values.clear();
    this.generation++;
    this.clearedAt = Date.now();
  }

  /** The kept value of `key`, else what `read` gives (kept unless the memo was cleared while it ran). */
  async get(key: K, read: () => Promise<V>): Promise<V> {
    if (Date.now() - this.clearedAt >= this.maxAgeMs) this.forget();
    if (this.values.has(key)) return this.values.get(key)!;
    const generation = this.generation;
    const value = await read();
    if (generation === this.generation) this.values.set(key, value);
    return value;
  }
}
