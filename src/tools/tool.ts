// What a tool is: one definition object (name, description, zod input/output, scope, flags, annotations, handler).
import type { z } from "zod";
import type { Db } from "../core/db.ts";
import type { ToolContext } from "./context.ts";
import type { Scope } from "./scopes.ts";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Reads: no side effects, safe to repeat. */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Additive writes (create, append). */
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Writes that set state to a given value: repeating them changes nothing more. */
export const UPDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
/** Writes that remove or irreversibly change data. */
export const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

export type ObjectSchema = z.ZodObject;

/**
 * A failure a tool documents: the status of the problem it answers with, its `code` (a 422's rule code; for the other
 * statuses the generic one, e.g. not_found, unless given) and, where the code alone does not say, when it happens.
 */
export type DocumentedFailure =
  | { status: 422; code: string; when?: string }
  | { status: 400 | 403 | 404 | 409 | 413 | 429; code?: string; when: string };

export interface ToolDefinition<I extends ObjectSchema = ObjectSchema, O extends z.ZodType = z.ZodType> {
  /** `<area>.<action>`, the one name used in code, REST and MCP. */
  name: string;
  /** Written for a model: when to use the tool and what it returns. */
  description: string;
  /**
   * The failures particular to this tool, beyond the 400, 401, 403 and 429 any call can get. GET /api/v1/tools, OpenAPI
   * and /docs list them; the description leaves them out, so MCP's tools/list and the assistants' tool lists carry none
   * (a refused call's problem names its code and says why in its detail).
   */
  errors?: readonly DocumentedFailure[];
  input: I;
  output: O;
  scope: Scope;
  /** Callable without credentials (rate limited per address). */
  anonymous: boolean;
  /** Writes an audit entry in the same transaction as its change. */
  audited: boolean;
  /**
   * Input or output fields that hold secrets (a password, a new key): the audit log stores "[redacted]" in their place,
   * wherever a field of that name appears in a snapshot it records.
   */
  sensitive?: readonly string[];
  /**
   * Staff views a storefront session may not call although its scopes include `scope` (customer:read also serves the
   * shopper's own-customer tools). Checked with the scope, before the input, so a session learns nothing from a 400.
   */
  staffOnly?: boolean;
  /**
   * A read or write only server code needs (a door's own plumbing: the UCP order view behind an order update, a key's
   * ACP signing secret). Kept out of REST, MCP, OpenAPI, the catalogue, /docs and the assistants: only `executor.call`
   * with this definition reaches it, still checked for scope, validated and audited like any tool.
   */
  internal?: boolean;
  /**
   * How long the write transaction may take (default 30 s, with 10 s to get a connection): only the operator's
   * whole-shop writes (the demo seed, the UCP samples import) need minutes, and wait up to a minute to begin.
   */
  transactionTimeoutMs?: number;
  /**
   * Shopper self-service: a storefront session may call the tool without `scope` on its own orders only: those it placed
   * itself and, once signed in by login code, its customer's (`ownOrders` in src/tools/user/own-customer.ts). `order` names
   * the order an input acts on (its orderId, or the order behind a return); before the handler runs the executor answers
   * any other order with 404 for a signed-in session and 422 no_customer for one that is not. Staff keep calling it
   * through `scope` on any order.
   */
  shopper?: { order(input: z.output<I>, db: Db): Promise<string | null> | string | null };
  annotations: ToolAnnotations;
  /** A larger JSON body than the doors' default (an upload), e.g. "12mb"; REST reads the body with this limit. */
  bodyLimit?: string;
  /**
   * "catalog": an anonymous read whose result depends only on its input and the catalogue read model, so doors may
   * reuse a serialized result until the catalogue changes.
   */
  cache?: "catalog";
  /** Valid inputs against the demo shop: shown in OpenAPI and replayed by the REST/MCP parity test. */
  examples: Array<z.input<I>>;
  handler(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
}

export type AnyTool = ToolDefinition<ObjectSchema, z.ZodType>;

/** Identity with type inference: `export default defineTool({...})`. */
export function defineTool<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}
