// The one executor every door calls: look up, authorise, validate, run in a transaction with the audit entry, then side effects.
import crypto from "node:crypto";
import type { z } from "zod";
import type { Config } from "../core/config.ts";
import type { Database, Db } from "../core/db.ts";
import { CommittedRefusal, Forbidden, Invalid, NotFound, Refused, ToolError, Unauthorized, toToolError, type FieldError } from "../core/errors.ts";
import { toJson } from "../core/json.ts";
import { illFormed } from "../core/well-formed-input.ts";
import type { Logger } from "../core/log.ts";
import type { AuditRecord, Caller, Door, ToolContext } from "./context.ts";
import type { Registry } from "./registry.ts";
import { hasScope } from "./scopes.ts";
import { outsideToolsets, toolsetsAllow } from "./toolsets.ts";
import { inToolSpan } from "./trace.ts";
import type { Collaborators } from "./collaborators.ts";
import type { AnyTool, ObjectSchema, ToolDefinition } from "./tool.ts";
import { notOwnOrder, ownOrders } from "./user/own-customer.ts";
import { shareSettingRows } from "./shared/setting-rows.ts";
import { shareSubscribedTypes } from "./webhooks/subscribed.ts";

/**
 * Told of every call once it is over (metrics): `tool` is the registered name, or "unknown" for a name no tool has (a
 * caller's typo must not become a label); `error` is what the call failed with, as the door answers it.
 */
type ToolCallObserver = (tool: string, seconds: number, error?: ToolError) => void;

export interface ExecutorDeps {
  config: Config;
  database: Database;
  registry: Registry;
  collaborators: Collaborators;
  log: Logger;
  now: () => Date;
  observe?: ToolCallObserver;
}

export interface Invocation {
  name: string;
  input: unknown;
  caller: Caller;
  door: Door;
  requestId?: string;
  /** Doors that carry the storefront session cookie re-issue it here when a tool moved the session to a new id. */
  onSessionReplaced?: (sessionId: string) => void;
}

/** How a door calls a tool it names in code: everything of an invocation but the tool and its input. */
export type CallSite = Omit<Invocation, "name" | "input">;

export class Executor {
  private readonly deps: ExecutorDeps;

  constructor(deps: ExecutorDeps) {
    this.deps = deps;
  }

  get registry(): Registry {
    return this.deps.registry;
  }

  get config(): Config {
    return this.deps.config;
  }

  /** The tool if this caller may call it; throws 404 / 401 / 403 otherwise. */
  authorize(name: string, caller: Caller): AnyTool {
    const tool = this.deps.registry.get(name);
    if (!tool) throw new NotFound(`There is no tool named "${name}".`);
    return this.authorizeTool(tool, caller);
  }

  private authorizeTool(tool: AnyTool, caller: Caller): AnyTool {
    if (caller.toolsets && !toolsetsAllow(caller.toolsets, tool.name)) throw new Forbidden(outsideToolsets(tool.name, caller.toolsets));
    if (tool.anonymous) return tool;
    if (caller.kind === "anonymous") throw new Unauthorized(`${tool.name} needs a Bearer API key with the scope "${tool.scope}".`);
    if (!hasScope(caller.scopes, tool.scope)) {
      if (actsAsShopper(tool, caller)) return tool;
      throw new Forbidden(`${tool.name} needs the scope "${tool.scope}", which this caller does not have.`);
    }
    if (tool.staffOnly && caller.kind === "session") {
      throw new Forbidden(`${tool.name} is for staff; a storefront session only sees its own customer (customer.lookup_by_email, user.list_orders).`);
    }
    return tool;
  }

  /** Whether the caller may call the tool (for listings such as MCP tools/list). */
  allows(tool: AnyTool, caller: Caller): boolean {
    if (!toolsetsAllow(caller.toolsets, tool.name)) return false;
    if (tool.anonymous) return true;
    if (caller.kind === "anonymous") return false;
    return hasScope(caller.scopes, tool.scope) ? !(tool.staffOnly && caller.kind === "session") : actsAsShopper(tool, caller);
  }

  /**
   * The one typed way a door calls a tool it names in code: by its definition, the input typed by its zod input schema,
   * the result by its output schema. The definition must be the one this executor registered under its name, so the
   * result is that handler's (a different object of the same name would make the type a lie).
   */
  async call<I extends ObjectSchema, O extends z.ZodType>(tool: ToolDefinition<I, O>, input: z.input<I>, site: CallSite): Promise<z.output<O>> {
    if (!this.deps.registry.owns(tool)) throw new Error(`${tool.name} is not a tool this executor registered.`);
    const call: Invocation = { ...site, name: tool.name, input };
    const result = await inToolSpan(tool.name, site.door, () => this.measured(call, tool.name, () => this.authorizeTool(tool, site.caller)));
    // The handler's promise is typed by O and the executor passes its result through: this is the one place that says so.
    return result as z.output<O>;
  }

  /** Runs one tool call inside its trace span, counted in the metrics when they are on. */
  invoke(call: Invocation): Promise<unknown> {
    const label = this.deps.registry.get(call.name) ? call.name : "unknown";
    return inToolSpan(call.name, call.door, () => this.measured(call, label, () => this.authorize(call.name, call.caller)));
  }

  /** `label` names the tool in the metrics; `resolve` finds and authorises it (by name, or the definition given). */
  private async measured(call: Invocation, label: string, resolve: () => AnyTool): Promise<unknown> {
    const observe = this.deps.observe;
    if (!observe) return this.perform(call, resolve);
    const started = performance.now();
    const tool = label;
    try {
      const result = await this.perform(call, resolve);
      observe(tool, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      observe(tool, (performance.now() - started) / 1000, toToolError(error));
      throw error;
    }
  }

  private async perform(call: Invocation, resolve: () => AnyTool): Promise<unknown> {
    const requestId = call.requestId ?? crypto.randomUUID();
    const tool = resolve();
    const hostile = illFormed(call.input);
    if (hostile.length) throw new Invalid(`The input of ${tool.name} holds values no tool accepts.`, hostile);
    const parsed = tool.input.safeParse(call.input);
    if (!parsed.success) throw new Invalid(`The input does not match ${tool.name}'s schema.`, fieldErrors(parsed.error));
    if (actsAsShopper(tool, call.caller) && !hasScope(call.caller.scopes, tool.scope)) await this.checkOwnOrder(tool, parsed.data, call.caller);
    try {
      const result = await this.run(tool, parsed.data, call, requestId);
      if (this.deps.config.validateOutput) this.checkOutput(tool, result);
      return result;
    } catch (error) {
      const mapped = toToolError(error);
      if (mapped.status >= 500) this.deps.log.error("tool failed", { tool: tool.name, requestId, error: describe(error) });
      throw mapped;
    }
  }

  /**
   * A shopper acting through a `shopper` tool: the order the input names must be one the session reaches (placed by it,
   * or its signed-in customer's).
   */
  private async checkOwnOrder(tool: AnyTool, input: Record<string, unknown>, caller: Caller): Promise<void> {
    const db = this.deps.database.prisma;
    const orderId = tool.shopper ? await tool.shopper.order(input, db) : null;
    const mine = ownOrders(caller.session);
    const own = orderId && mine ? await db.order.findFirst({ where: { id: orderId, ...mine }, select: { id: true } }) : null;
    if (!own) throw notOwnOrder(caller.session, orderId);
  }

  private async run(tool: AnyTool, input: Record<string, unknown>, call: Invocation, requestId: string): Promise<unknown> {
    const { database } = this.deps;
    const effects: Array<() => Promise<void> | void> = [];
    const isRead = tool.annotations.readOnlyHint && !tool.audited;
    let result: unknown;
    if (isRead) {
      result = await tool.handler(input, this.context(database.prisma, call, requestId, tool, effects));
    } else {
      result = await database.prisma.$transaction(
        async (tx) => {
          shareSettingRows(tx, database.prisma);
          shareSubscribedTypes(tx, database.prisma);
          const audited: AuditRecord[] = [];
          const state = { unchanged: false };
          const ctx = this.context(tx, call, requestId, tool, effects, audited, state);
          let value: unknown;
          try {
            value = await tool.handler(input, ctx);
          } catch (error) {
            if (error instanceof CommittedRefusal) return error;
            throw error;
          }
          // Safety net: an audited call that recorded nothing and did not declare itself a no-op still leaves a trace.
          if (tool.audited && audited.length === 0 && !state.unchanged) {
            await writeAudit(tx, tool, call, requestId, { subjectType: "tool", subjectId: tool.name, before: null, after: { input } });
          }
          return value;
        },
        tool.transactionTimeoutMs ? { maxWait: 60_000, timeout: tool.transactionTimeoutMs } : { maxWait: 10_000, timeout: 30_000 },
      );
      if (result instanceof CommittedRefusal) throw result.refusal;
    }
    for (const effect of effects) {
      try {
        await effect();
      } catch (error) {
        this.deps.log.error("after-commit effect failed", { tool: tool.name, requestId, error: describe(error) });
      }
    }
    return result;
  }

  private context(
    db: Db,
    call: Invocation,
    requestId: string,
    tool: AnyTool,
    effects: Array<() => Promise<void> | void>,
    audited?: AuditRecord[],
    state = { unchanged: false },
  ): ToolContext {
    const { config, log, collaborators, now } = this.deps;
    return {
      db,
      caller: call.caller,
      door: call.door,
      requestId,
      config,
      log,
      collaborators,
      now,
      async audit(record) {
        if (!audited) throw new Error(`${tool.name} is a read tool and cannot write audit entries.`);
        audited.push(record);
        return writeAudit(db, tool, call, requestId, record);
      },
      unchanged() {
        state.unchanged = true;
      },
      afterCommit(effect) {
        effects.push(effect);
      },
      replaceSession(sessionId) {
        const reissue = call.onSessionReplaced;
        // A door that cannot set the new cookie would leave the shopper holding a dead one: refuse before commit.
        if (!reissue) throw new Refused("cookie_door_needed", `${tool.name} moves the storefront session to a new cookie; call it over REST or the storefront.`);
        effects.push(() => reissue(sessionId));
      },
    };
  }

  private checkOutput(tool: AnyTool, result: unknown): void {
    const checked = tool.output.safeParse(result);
    if (!checked.success) {
      this.deps.log.error("tool output violates its schema", { tool: tool.name, issues: checked.error.issues });
      throw new ToolError(500, "invalid_output", "Internal error", `${tool.name} produced a result that violates its output schema.`, fieldErrors(checked.error));
    }
  }
}

async function writeAudit(db: Db, tool: AnyTool, call: Invocation, requestId: string, record: AuditRecord): Promise<string> {
  const entry = await db.auditEntry.create({
    data: {
      tool: tool.name,
      actor: call.caller.actor,
      door: call.door,
      agent: agentOf(call.caller),
      requestId,
      subjectType: record.subjectType,
      subjectId: record.subjectId,
      before: jsonOrNull(redact(record.before, tool.sensitive)),
      after: jsonOrNull(redact(record.after, tool.sensitive)),
      note: record.note ?? null,
      revertOfId: record.revertOfId ?? null,
    },
    select: { id: true },
  });
  return entry.id;
}

/** "name/version" of the acting agent (MCP clientInfo), its name alone, or null for people. */
function agentOf(caller: Invocation["caller"]): string | null {
  if (!caller.agent) return null;
  return caller.agentVersion ? `${caller.agent}/${caller.agentVersion}` : caller.agent;
}

/** The value with every field named in `sensitive`, at any depth, replaced by "[redacted]". */
function redact(value: unknown, sensitive: readonly string[] | undefined): unknown {
  if (!sensitive?.length || value === null || typeof value !== "object" || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, sensitive));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sensitive.includes(key) ? REDACTED : redact(item, sensitive)]));
}

const REDACTED = "[redacted]";

function jsonOrNull(value: unknown) {
  const json = toJson(value);
  return json === null ? undefined : json;
}

/** A storefront session calling a tool shoppers may use on their own orders (signed in or not: checked per call). */
function actsAsShopper(tool: AnyTool, caller: Caller): boolean {
  return caller.kind === "session" && tool.shopper !== undefined;
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const at = (path: PropertyKey[]) => (path.length ? path.map(String).join(".") : "(root)");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: at([...issue.path, key]), message: `Unknown field "${key}"` }));
    }
    return [{ path: at(issue.path), message: issue.message }];
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
