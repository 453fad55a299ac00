// Work a request starts but does not wait for (a login e-mail, a last-seen touch): failures are logged, and tests and
// shutdown can wait until it is done.
import type { Logger } from "./log.ts";

export class Background {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.log.error("background work failed", { error: String(error) })).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Resolves once everything tracked so far (and started meanwhile) has settled. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
