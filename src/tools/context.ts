// What a handler receives: the caller, the database (a transaction for writes), the audit writer, clock, logger and collaborators.
import type { Config } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import type { Logger } from "../core/log.ts";
import type { Collaborators } from "./collaborators.ts";

export type Door = "rest" | "mcp" | "ucp" | "acp" | "storefront-assistant" | "admin-assistant" | "cli" | "web" | "admin" | "webhook" | "system";

/** A storefront (cookie) session, and the customer it is bound to once known. */
export interface SessionRef {
  id: string;
  customerId: string | null;
  /** False for the empty throw-away session an API-key-only call gets. */
  persistent: boolean;
}

export interface Caller {
  kind: "anonymous" | "key" | "session" | "staff" | "system";
  /** Audit actor: "key:<id>", "session:<id>", "staff:<id>", "anonymous" or "system:<name>". */
  actor: string;
  scopes: ReadonlySet<string>;
  /** The toolsets (areas) the caller is limited to, from its key or grant, narrowed per MCP connection; none: all. */
  toolsets?: ReadonlySet<string>;
  keyId?: string;
  /** The signed-in staff user (admin web and admin assistant), kind "staff". */
  staffId?: string;
  session?: SessionRef;
  /** Client address, for per-address rate limits. */
  address?: string;
  /** Name of the AI agent or assistant acting, when known (MCP client name, assistant id). */
  agent?: string;
  /** The agent's version, when it says (MCP clientInfo.version). */
  agentVersion?: string;
  /** The agent's profile URL (UCP-Agent header of the UCP door): it owns the checkout sessions it creates. */
  agentProfile?: string;
  /** Where that agent's profile wants order events (its order capability's webhook_url). */
  agentWebhookUrl?: string;
}

export interface AuditRecord {
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
  /** Why the change was made, in the caller's words (e.g. a stock adjustment reason). */
  note?: string;
  /** Set by audit.revert: the entry this one undoes. */
  revertOfId?: string;
}

export interface ToolContext {
  /** The transaction for write tools, the shared client for reads. */
  db: Db;
  caller: Caller;
  door: Door;
  requestId: string;
  config: Config;
  log: Logger;
  collaborators: Collaborators;
  now(): Date;
  /** Records an audit entry (tool, actor, door, subject, before, after) in the tool's transaction; returns its id. */
  audit(record: AuditRecord): Promise<string>;
  /** Declares that this call of an audited tool changed nothing (dry run, idempotent repeat): no audit entry is owed. */
  unchanged(): void;
  /** Runs after the transaction commits (events, cache refresh, e-mail); never on rollback. */
  afterCommit(effect: () => Promise<void> | void): void;
  /** The caller's storefront session goes on under this id (sign-in rotates it): after commit the door re-issues its cookie. */
  replaceSession(sessionId: string): void;
}
