// The small error family every layer throws; each door translates it once (RFC 9457 problems).

export interface FieldError {
  path: string;
  message: string;
}

export class ToolError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: FieldError[] | undefined;

  constructor(status: number, code: string, title: string, detail: string, errors?: FieldError[]) {
    super(detail);
    this.status = status;
    this.code = code;
    this.title = title;
    this.errors = errors;
  }
}

export class Invalid extends ToolError {
  constructor(detail: string, errors?: FieldError[]) {
    super(400, "invalid_input", "Invalid input", detail, errors);
  }
}

export class Unauthorized extends ToolError {
  constructor(detail = "A valid Bearer API key is required.") {
    super(401, "unauthorized", "Unauthorized", detail);
  }
}

export class Forbidden extends ToolError {
  constructor(detail: string) {
    super(403, "forbidden", "Forbidden", detail);
  }
}

export class NotFound extends ToolError {
  constructor(detail: string) {
    super(404, "not_found", "Not found", detail);
  }
}

export class Conflict extends ToolError {
  constructor(detail: string) {
    super(409, "conflict", "Conflict", detail);
  }
}

/** A domain rule refuses the request (422); `code` names the rule, e.g. "illegal_transition". */
export class Refused extends ToolError {
  constructor(code: string, detail: string) {
    super(422, code, "Refused by a shop rule", detail);
  }
}

export class RateLimited extends ToolError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, reason = "Rate limit exceeded") {
    super(429, "rate_limited", "Too many requests", `${reason}; retry in ${retryAfterSeconds} s.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A refusal that keeps what its call wrote so far (attempt counters): the executor commits the transaction, then
 * answers `refusal`. Thrown by handlers whose refusals must count, such as a wrong sign-in code.
 */
export class CommittedRefusal extends Error {
  readonly refusal: ToolError;
  constructor(refusal: ToolError) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

class Unavailable extends ToolError {
  constructor(detail = "The database is unreachable; try again shortly.") {
    super(503, "unavailable", "Service unavailable", detail);
  }
}

export interface Problem {
  ok: false;
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldError[];
  requestId?: string;
}

export function problemOf(error: ToolError, requestId?: string): Problem {
  const problem: Problem = {
    ok: false,
    type: `/problems/${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
  };
  if (error.errors) problem.errors = error.errors;
  if (requestId && error.status >= 500) problem.requestId = requestId;
  return problem;
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "08006", "08001", "P1001", "P1017"]);
/** Prisma's codes for a value the database cannot take: too long, invalid, out of range. */
const BAD_VALUE_CODES = new Set(["P2000", "P2007", "P2020", "P2023"]);

/** Maps anything thrown below a door to a ToolError; unknown errors become a 500 without internals. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const code = dbErrorCode(error);
  if (code === "P2002" || code === "23505") return new Conflict("That value is already taken.");
  if (code === "P2025") return new NotFound("The record does not exist.");
  if (code === "P2003" || code === "23503" || code === "23001") {
    return new Refused("has_dependents", "Other records still refer to this one, or it refers to a record that does not exist.");
  }
  // SQLSTATE class 22 is "data exception" (22021 bad encoding, 22P02 invalid text, 22P05 untranslatable, 22003 out of
  // range …): the input carried a value the database cannot hold, which is the caller's error, not ours.
  if (code !== undefined && (code.startsWith("22") || BAD_VALUE_CODES.has(code))) {
    const detail = "The database cannot store a value of this input (invalid characters, too long or out of range).";
    return new Invalid(detail, [{ path: "(root)", message: detail }]);
  }
  if (code !== undefined && CONNECTION_CODES.has(code)) return new Unavailable();
  return new ToolError(500, "internal", "Internal error", "An unexpected error occurred.");
}

/** Prisma's catch-all codes ("database error", "raw query failed"), behind which the SQLSTATE says what happened. */
const WRAPPER_CODES = new Set(["P2039", "P2010"]);

/**
 * The Prisma/PostgreSQL code of a failed statement, e.g. "P2003" or "23503" for a foreign-key violation. Walks `cause`
 * and Prisma's `meta.driverAdapterError`; behind a catch-all wrapper (P2039, P2010) it answers the SQLSTATE.
 */
export function dbErrorCode(error: unknown): string | undefined {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    const { code, originalCode, meta, cause } = current as { code?: unknown; originalCode?: unknown; meta?: { driverAdapterError?: unknown }; cause?: unknown };
    for (const found of [code, originalCode]) if (typeof found === "string" && !codes.includes(found)) codes.push(found);
    current = meta?.driverAdapterError ?? cause;
  }
  const [first, ...rest] = codes;
  return first !== undefined && WRAPPER_CODES.has(first) && rest.length ? rest[rest.length - 1] : first;
}
