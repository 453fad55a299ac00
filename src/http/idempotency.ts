// The Idempotency-Key store of the protocol doors (UCP, ACP): a mutating request made with a key runs once per caller
// and key; a repeat with the same request replays the stored response, one with another request is refused (409), one
// while the first still runs is refused (409). Records live in the database, so every process behind a balancer shares
// them, and are kept at least 24 h. Server errors (5xx) are never stored: the client may retry them.
import crypto from "node:crypto";
import type { Db } from "../core/db.ts";
import { dbErrorCode, ToolError } from "../core/errors.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/** How long a stored response answers repeats of its key. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** After this long an unfinished first request is presumed dead (its process crashed) and the key may run again. */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotentRequest {
  /** Who asked: the same key from two callers is two keys. */
  caller: string;
  key: string;
  method: string;
  path: string;
  /** The request body as parsed (undefined for none). */
  body: unknown;
}

export type Claim = { kind: "run"; recordId: string } | { kind: "replay"; response: StoredResponse };

/** A refusal of the idempotency layer: 409 with a code the door puts in its protocol's error shape. */
export class IdempotencyRefusal extends ToolError {
  constructor(code: "idempotency_key_reused" | "request_in_progress", detail: string) {
    super(409, code, "Conflict", detail);
  }
}

/** Idempotency keys are opaque strings of 1 to 255 visible ASCII characters. */
export function validKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

export function requestHash(request: IdempotentRequest): string {
  return crypto.createHash("sha256").update(`${request.method} ${request.path}\n${JSON.stringify(request.body ?? null)}`).digest("hex");
}

export class IdempotencyStore {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.db = db;
    this.now = now;
  }

  /** Claims the key for this request: run it (then `finish`), or replay the stored response; 409 otherwise. */
  async claim(request: IdempotentRequest): Promise<Claim> {
    const hash = requestHash(request);
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await this.db.idempotencyRecord.findUnique({ where: { caller_key: { caller: request.caller, key: request.key } } });
      const now = this.now().getTime();
      if (!existing) {
        try {
          const created = await this.db.idempotencyRecord.create({
            data: { caller: request.caller, key: request.key, method: request.method, path: request.path, requestHash: hash, createdAt: this.now() },
          });
          return { kind: "run", recordId: created.id };
        } catch (error) {
          if (dbErrorCode(error) === "P2002" || dbErrorCode(error) === "23505") continue;
          throw error;
        }
      }
      const age = now - existing.createdAt.getTime();
      const stale = existing.status === null ? age > IN_FLIGHT_LEASE_MS : age > IDEMPOTENCY_TTL_MS;
      if (stale) {
        await this.db.idempotencyRecord.deleteMany({ where: { id: existing.id, createdAt: existing.createdAt } });
        continue;
      }
      if (existing.requestHash !== hash) {
        throw new IdempotencyRefusal("idempotency_key_reused", "This Idempotency-Key was used for a different request; use a new key for a new request.");
      }
      if (existing.status === null || existing.body === null) {
        throw new IdempotencyRefusal("request_in_progress", "A request with this Idempotency-Key is still being processed; retry shortly.");
      }
      return { kind: "replay", response: { status: existing.status, headers: (existing.headers as Record<string, string> | null) ?? {}, body: existing.body } };
    }
    throw new IdempotencyRefusal("request_in_progress", "A request with this Idempotency-Key is still being processed; retry shortly.");
  }

  /** Stores the response of a claimed request; a server error releases the key instead, so a retry runs again. */
  async finish(recordId: string, response: StoredResponse): Promise<void> {
    if (response.status >= 500) {
      await this.release(recordId);
      return;
    }
    await this.db.idempotencyRecord.updateMany({
      where: { id: recordId },
      data: { status: response.status, headers: response.headers as Prisma.InputJsonValue, body: response.body },
    });
  }

  async release(recordId: string): Promise<void> {
    await this.db.idempotencyRecord.deleteMany({ where: { id: recordId } });
  }

  /** Drops records past their time (run now and then; reads ignore them anyway). */
  async prune(): Promise<number> {
    const { count } = await this.db.idempotencyRecord.deleteMany({ where: { createdAt: { lt: new Date(this.now().getTime() - IDEMPOTENCY_TTL_MS) } } });
    return count;
  }
}
