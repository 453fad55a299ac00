// A value shared by every request and refreshed in the background once it is older than its time to live.

/**
 * Holds one value read by `load`. Within `ttlMs` every caller gets it without a read; after that the next callers
 * still get the old value while a single refresh runs (no stampede of reads under load). Only the first read waits.
 */
export class Refreshing<T> {
  private current: { value: T; at: number } | undefined;
  private pending: Promise<T> | undefined;

  private readonly ttlMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly now: () => number;

  constructor(ttlMs: number, onError: (error: unknown) => void, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.onError = onError;
    this.now = now;
  }

  get(load: () => Promise<T>): Promise<T> {
    const current = this.current;
    if (current && this.now() - current.at < this.ttlMs) return Promise.resolve(current.value);
    this.pending ??= load()
      .then((value) => {
        this.current = { value, at: this.now() };
        return value;
      })
      .finally(() => {
        this.pending = undefined;
      });
    if (!current) return this.pending;
    // Serving the old value: a failed refresh is reported, and tried again by the next caller.
    this.pending.catch(this.onError);
    return Promise.resolve(current.value);
  }
}
