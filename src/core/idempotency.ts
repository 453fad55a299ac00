// The Idempotency-Key store of the protocol doors: a mutating request made with a key runs once per caller and key; a
// repeat with the same request replays the stored response, one with another request is refused, one while the first
// still runs is refused (status and code per door, its rules). Records live in the database, so every process behind a
// balancer shares them, and are kept at least 24 h. Server errors (5xx) are never stored: the client may retry them.
import crypto from "node:crypto";
import { canonicalJson } from "./canonical-json.ts";
import type { Db } from "./db.ts";
import { dbErrorCode, ToolError } from "./errors.ts";
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

/** A refusal of the idempotency layer: the status and code of the door's rules, put in its protocol's error shape. */
export class IdempotencyRefusal extends ToolError {
  /** "conflict": the key was used for another request; "in_flight": its first request still runs. */
  readonly reason: "conflict" | "in_flight";
  constructor(reason: "conflict" | "in_flight", status: number, code: string, detail: string) {
    super(status, code, status === 422 ? "Unprocessable Content" : "Conflict", detail);
    this.reason = reason;
  }
}

/** How a door answers reuse of a key: the status and code of each refusal, and how bodies are compared. */
export interface IdempotencyRules {
  conflict: { status: number; code: string };
  inFlight: { status: number; code: string };
  /** Compare bodies as canonical JSON (RFC 8785: key order and number spelling do not matter) instead of as parsed. */
  canonical: boolean;
}

/** The default rules: 409 for both refusals, bodies compared as parsed. */
export const DEFAULT_RULES: IdempotencyRules = {
  conflict: { status: 409, code: "idempotency_key_reused" },
  inFlight: { status: 409, code: "request_in_progress" },
  canonical: false,
};

/** Idempotency keys are opaque strings of 1 to 255 visible ASCII characters. */
export function validKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

export function requestHash(request: IdempotentRequest, canonical = false): string {
  const body = canonical ? canonicalJson(request.body ?? null) : JSON.stringify(request.body ?? null);
  return crypto.createHash("sha256").update(`${request.method} ${request.path}\n${body}`).digest("hex");
}

export class IdempotencyStore {
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly rules: IdempotencyRules;

  constructor(db: Db, now: () => Date, rules: IdempotencyRules = DEFAULT_RULES) {
    this.db = db;
    this.now = now;
    this.rules = rules;
  }

  /** Claims the key for this request: run it (then `finish`), or replay the stored response; 409 otherwise. */
  async claim(request: IdempotentRequest): Promise<Claim> {
    const hash = requestHash(request, this.rules.canonical);
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
        throw this.refuse("conflict", "This Idempotency-Key was used for a different request; use a new key for a new request.");
      }
      if (existing.status === null || existing.body === null) {
        throw this.refuse("in_flight", "A request with this Idempotency-Key is still being processed; retry shortly.");
      }
      return { kind: "replay", response: { status: existing.status, headers: (existing.headers as Record<string, string> | null) ?? {}, body: existing.body } };
    }
    throw this.refuse("in_flight", "A request with this Idempotency-Key is still being processed; retry shortly.");
  }

  private refuse(reason: "conflict" | "in_flight", detail: string): IdempotencyRefusal {
    const rule = reason === "conflict" ? this.rules.conflict : this.rules.inFlight;
    return new IdempotencyRefusal(reason, rule.status, rule.code, detail);
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
