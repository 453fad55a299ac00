// The holds of this process's running turns on their chats, kept alive while the process lives: renewed every RENEW_MS,
// each lapses HOLD_MS after its last renewal (by the database's clock), so the chat of a turn whose process died takes a
// new turn within seconds, on whichever process it is sent to.
import type { Logger } from "../../core/log.ts";
import type { ChatStore } from "../../tools/chats/store.ts";

/** How long a hold lasts after its claim or renewal: two renewals may be missed (a busy event loop, a slow pool). */
export const HOLD_MS = 6_000;
const RENEW_MS = 2_000;

export class TurnHolds {
  /** Lease id → its chat, and what to do when another turn took the chat over (this process stalled past HOLD_MS). */
  private readonly held = new Map<string, { chatId: string; lost: (reason: string) => void }>();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;

  private readonly store: ChatStore;
  private readonly log: Logger;

  constructor(store: ChatStore, log: Logger) {
    this.store = store;
    this.log = log;
  }

  /** Renews the hold until forget(lease); `lost` is called if the hold lapsed and another turn took the chat meanwhile. */
  keep(chatId: string, lease: string, lost: (reason: string) => void): void {
    this.held.set(lease, { chatId, lost });
    this.timer ??= setInterval(() => void this.renew(), RENEW_MS).unref();
  }

  /** Stops renewing: before the statement that releases the hold, so a renewal that no longer finds it does not count it lost. */
  forget(lease: string): void {
    this.held.delete(lease);
    if (this.held.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.held.clear();
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    const leases = [...this.held.keys()];
    try {
      const renewed = new Set(await this.store.renew([...this.held].map(([lease, { chatId }]) => ({ chatId, lease })), HOLD_MS));
      for (const lease of leases) {
        const hold = this.held.get(lease);
        if (!hold || renewed.has(lease)) continue;
        this.forget(lease);
        this.log.warn("chat turn hold lost", { chatId: hold.chatId });
        hold.lost("another turn took the chat over");
      }
    } catch (error) {
      this.log.warn("chat turn holds not renewed", { turns: leases.length, error: String(error) });
    } finally {
      this.renewing = false;
    }
  }
}
