// The `shop` commands, each one function over an executor and what the composition root hands them (CommandContext,
// never the database): the CLI runs them itself, or, while a server
// holds the embedded database, that server runs the very same function for it (src/cli/channel.ts). Key, staff and
// webhook commands call the keys.*, staff.* and webhooks.* tools as the local operator, and so do the writes only the
// CLI makes (keys.rotate_signing, …: internal tools), each leaving an audit entry with door "cli". Add an option here, once.
import path from "node:path";
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import type { z } from "zod";
import type { SigningKeys } from "../tools/keys/signing-keys.ts";
import { ToolError } from "../core/errors.ts";
import type { AcpFeedFiles } from "./acp-feed.ts";
import { readSampleDir } from "./ucp-samples.ts";
import type { Caller } from "../tools/context.ts";
import type { Executor } from "../tools/executor.ts";
import setAcp from "../tools/keys/set_acp.ts";
import { WILDCARD, type Grant } from "../tools/scopes.ts";
import type { ObjectSchema, ToolDefinition } from "../tools/tool.ts";
import type { EventType } from "../tools/webhooks/schemas.ts";
import { checkReceiver } from "../tools/webhooks/endpoints.ts";

/** Where a command writes: `out` is stdout (`keys create` prints the key as its last line), `err` is stderr. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext extends CommandOutput {
  /**
   * Applies pending migrations (`db migrate`): a core call, not a tool, since it runs before any tool can (it makes the
   * tables every tool, the audit log among them, needs). Returns the migrations applied.
   */
  migrate(): Promise<string[]>;
  /** The ACP feed's files (`feed acp`), built by the composition root from a freshly loaded catalogue. */
  acpFeed(): Promise<AcpFeedFiles>;
  /** The executor of key and staff commands: the server's own while one holds the database, else built on first use. */
  executor(): Promise<Executor>;
  /** Set when the command runs inside a running server: its caches follow the change at once. */
  server?: {
    /** The catalogue was replaced (seed): reload the read model. */
    catalogChanged(): Promise<void>;
    /** The server's signing keys: a rotation through them is used by this process at once, not after its cache TTL. */
    signingKeys: SigningKeys;
  };
}

type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

interface Command {
  /** The words that name it: "keys create". */
  name: string;
  /** Arguments and options, for the usage text. */
  args: string;
  summary: string;
  options?: ParseArgsOptionsConfig;
  /** Positional arguments after the name (`keys revoke ID`). */
  positionals?: number;
  /** Its positionals are file paths: the CLI makes them absolute before a server (with its own cwd) runs the command. */
  paths?: boolean;
  /** Applies migrations itself; the CLI migrates the database before any other command. */
  migrates?: boolean;
  run(ctx: CommandContext, values: Values, positionals: string[]): Promise<number>;
}

const string = { type: "string" } as const;

/** Refused lines an import prints one by one; beyond that it says how many more. */
const MAX_REFUSALS_SHOWN = 1_000;

/** Whoever runs `shop` on the machine: every scope; the audit log names them "system:cli". */
const OPERATOR: Caller = { kind: "system", actor: "system:cli", scopes: new Set([WILDCARD]) };

/** A tool's module, imported when a command calls it: `db migrate` and `seed demo` never load the tools. */
type ToolModule<I extends ObjectSchema, O extends z.ZodType> = Promise<{ default: ToolDefinition<I, O> }>;

/** One tool call as the local operator, by the tool's definition, through the executor (validation, audit with door "cli"). */
async function call<I extends ObjectSchema, O extends z.ZodType>(ctx: CommandContext, tool: ToolModule<I, O>, input: z.input<I>): Promise<z.output<O>> {
  const [executor, { default: definition }] = await Promise.all([ctx.executor(), tool]);
  return executor.call(definition, input, { caller: OPERATOR, door: "cli" });
}

/** Rotation attempts: keys.rotate_signing answers 409 when another process rotated at the same instant. */
const ROTATION_ATTEMPTS = 3;

/** keys.rotate_signing, called again (a new transaction) while another process's rotation raced it. */
async function rotateSigning(ctx: CommandContext, revoke: boolean) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(ctx, import("../tools/keys/rotate_signing.ts"), { revoke });
    } catch (error) {
      if (!(error instanceof ToolError && error.status === 409) || attempt === ROTATION_ATTEMPTS) throw error;
    }
  }
}

/** "a, b,,c" → ["a", "b", "c"]; the tools refuse unknown scopes. */
function scopeList(value: string): Grant[] {
  return value.split(",").map((scope) => scope.trim()).filter(Boolean) as Grant[];
}

export const COMMANDS: readonly Command[] = [
  {
    name: "keys create",
    args: "--name NAME --scopes a,b [--toolsets orders,returns] [--acp-signing-secret S] [--acp-webhook-url URL]",
    summary: "create an API key (printed once, as the last line), limited to toolsets (areas) and with its ACP settings when given",
    options: { name: string, scopes: string, toolsets: string, "acp-signing-secret": string, "acp-webhook-url": string },
    async run(ctx, values) {
      if (typeof values.name !== "string" || typeof values.scopes !== "string") return usage(ctx, "keys create needs --name and --scopes");
      const acp = {
        ...(typeof values["acp-signing-secret"] === "string" ? { signingSecret: values["acp-signing-secret"] } : {}),
        ...(typeof values["acp-webhook-url"] === "string" ? { webhookUrl: values["acp-webhook-url"] } : {}),
      };
      // Checked before the key exists, so a bad ACP setting leaves no half-made key behind.
      const settings = setAcp.input.safeParse({ id: "new", ...acp });
      if (!settings.success) return usage(ctx, `keys create: ${settings.error.issues.map((issue) => `${issue.path[0] === "webhookUrl" ? "--acp-webhook-url" : "--acp-signing-secret"}: ${issue.message}`).join("; ")}`);
      if (acp.webhookUrl) await checkReceiver(acp.webhookUrl, (await ctx.executor()).config.webhooksAllowLocal);
      const toolsets = typeof values.toolsets === "string" ? { toolsets: scopeList(values.toolsets) } : {};
      const { secret, key } = await call(ctx, import("../tools/keys/create.ts"), { name: values.name, scopes: scopeList(values.scopes), ...toolsets });
      if (Object.keys(acp).length > 0) await call(ctx, import("../tools/keys/set_acp.ts"), { id: key.id, ...acp });
      const limited = key.toolsets ? ` limited to the toolsets ${key.toolsets.join(",")}` : "";
      ctx.out(`Created API key ${key.id} "${key.name}" with scopes ${key.scopes.join(",")}${limited}${Object.keys(acp).length > 0 ? " and its ACP settings" : ""}. It is shown only once:`);
      ctx.out(secret);
      return 0;
    },
  },
  {
    name: "keys list",
    args: "",
    summary: "list keys (never the secrets)",
    async run(ctx) {
      const keys = await call(ctx, import("../tools/keys/list.ts"), {});
      if (keys.length === 0) ctx.out("No API keys.");
      for (const key of keys) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `active, last used ${key.lastUsedAt ?? "never"}`;
        const toolsets = key.toolsets ? ` (toolsets ${key.toolsets.join(",")})` : "";
        ctx.out(`${key.id}\t${key.name}\t${key.prefix}\t${key.scopes.join(",")}${toolsets}\t${state}`);
      }
      return 0;
    },
  },
  {
    name: "keys revoke",
    args: "ID",
    summary: "revoke a key",
    positionals: 1,
    async run(ctx, _values, [id]) {
      if (!id) return usage(ctx, "keys revoke needs the key id");
      const key = await call(ctx, import("../tools/keys/revoke.ts"), { id });
      ctx.out(`Revoked API key ${key.id} "${key.name}" at ${key.revokedAt}.`);
      return 0;
    },
  },
  {
    name: "keys rotate-signing",
    args: "[--revoke]",
    summary: "replace the UCP signing key now (the old one stays published 7 days; --revoke deletes it at once)",
    options: { revoke: { type: "boolean" } },
    async run(ctx, values) {
      const rotation = await rotateSigning(ctx, values.revoke === true);
      // Inside a server its cached keys are dropped at once, so it signs and publishes the new key now, not after its TTL.
      ctx.server?.signingKeys.followRotation(rotation);
      if (!rotation.previous) ctx.out(`The shop had no signing key; made ${rotation.kid}, which signs from now on.`);
      else if (rotation.deleted.length > 0) ctx.out(`Signing key ${rotation.kid} signs from now on; deleted ${rotation.deleted.join(", ")} at once.`);
      else ctx.out(`Signing key ${rotation.kid} signs from now on; ${rotation.previous} stays published until ${rotation.publishedUntil}.`);
      return 0;
    },
  },
  {
    name: "webhooks create",
    args: "--url URL --events a,b",
    summary: "send these events to a URL (its whsec_ secret is printed once, as the last line)",
    options: { url: string, events: string },
    async run(ctx, values) {
      if (typeof values.url !== "string" || typeof values.events !== "string") return usage(ctx, "webhooks create needs --url and --events");
      const events = values.events.split(",").map((event) => event.trim()).filter(Boolean) as EventType[];
      const { id, secret, endpoint } = await call(ctx, import("../tools/webhooks/create.ts"), { url: values.url, events });
      ctx.out(`Created webhook ${id} to ${endpoint.url} for ${endpoint.events.join(",")}. Its signing secret is shown only once:`);
      ctx.out(secret);
      return 0;
    },
  },
  {
    name: "webhooks list",
    args: "",
    summary: "list webhooks (never the secrets)",
    async run(ctx) {
      const endpoints = await call(ctx, import("../tools/webhooks/list.ts"), {});
      if (endpoints.length === 0) ctx.out("No webhooks.");
      for (const endpoint of endpoints) {
        const state = endpoint.enabled ? `enabled, ${endpoint.failureStreak} failed in a row` : `disabled ${endpoint.disabledAt}: ${endpoint.disabledReason ?? ""}`;
        ctx.out(`${endpoint.id}\t${endpoint.url}\t${endpoint.events.join(",")}\t${state}`);
      }
      return 0;
    },
  },
  {
    name: "webhooks deliveries",
    args: "ID",
    summary: "a webhook's latest deliveries and their attempts",
    positionals: 1,
    async run(ctx, _values, [id]) {
      if (!id) return usage(ctx, "webhooks deliveries needs the webhook id");
      const deliveries = await call(ctx, import("../tools/webhooks/deliveries.ts"), { id });
      if (deliveries.length === 0) ctx.out("No deliveries.");
      for (const delivery of deliveries) {
        const last = delivery.lastStatusCode ?? delivery.lastError ?? "";
        ctx.out(`${delivery.id}\t${delivery.type}\t${delivery.status}\t${delivery.attempts}/${delivery.maxAttempts}\t${delivery.createdAt}\t${last}`);
      }
      return 0;
    },
  },
  ...(["test", "enable", "delete"] as const).map(
    (action): Command => ({
      name: `webhooks ${action}`,
      args: "ID",
      summary: { test: "send a webhook.test event", enable: "turn a disabled webhook back on", delete: "delete a webhook" }[action],
      positionals: 1,
      async run(ctx, _values, [id]) {
        if (!id) return usage(ctx, `webhooks ${action} needs the webhook id`);
        if (action === "test") {
          const { deliveryId } = await call(ctx, import("../tools/webhooks/test.ts"), { id });
          ctx.out(`Queued test event ${deliveryId} to webhook ${id}; a running server sends it.`);
        } else if (action === "enable") {
          const endpoint = await call(ctx, import("../tools/webhooks/enable.ts"), { id });
          ctx.out(`Webhook ${endpoint.id} to ${endpoint.url} is enabled.`);
        } else {
          await call(ctx, import("../tools/webhooks/delete.ts"), { id });
          ctx.out(`Deleted webhook ${id}.`);
        }
        return 0;
      },
    }),
  ),
  {
    name: "webhooks resend",
    args: "DELIVERY_ID",
    summary: "send a delivery again (same webhook-id and body)",
    positionals: 1,
    async run(ctx, _values, [deliveryId]) {
      if (!deliveryId) return usage(ctx, "webhooks resend needs the delivery id");
      const delivery = await call(ctx, import("../tools/webhooks/resend.ts"), { deliveryId });
      ctx.out(`Delivery ${delivery.id} (${delivery.type}) is queued again; a running server sends it.`);
      return 0;
    },
  },
  {
    name: "admin create",
    args: "--email E --password P [--scopes a,b]",
    summary: "create a staff user (scopes default to *), or set a new password (and scopes, when given) on an existing one",
    options: { email: string, password: string, scopes: string },
    async run(ctx, values) {
      if (typeof values.email !== "string" || typeof values.password !== "string") return usage(ctx, "admin create needs --email and --password");
      const { email, password } = values;
      const scopes = typeof values.scopes === "string" ? scopeList(values.scopes) : undefined;
      try {
        const { user } = await call(ctx, import("../tools/staff/create.ts"), { email, password, scopes: scopes ?? ["*"] });
        ctx.out(`Staff user ${user.email} (${user.id}) created with scopes ${user.scopes.join(",")}.`);
        return 0;
      } catch (error) {
        if (!(error instanceof ToolError && error.status === 409)) throw error;
      }
      // The user exists, and staff.create has found e-mail, password and scopes valid: the scopes first, since only
      // that call can still be refused (the last user with "*"), then the password, which signs the user out.
      if (scopes) await call(ctx, import("../tools/staff/set_scopes.ts"), { email, scopes });
      const { user } = await call(ctx, import("../tools/staff/reset_password.ts"), { email, password });
      ctx.out(`Staff user ${user.email} (${user.id}) updated (signed out everywhere) with scopes ${user.scopes.join(",")}.`);
      return 0;
    },
  },
  {
    name: "db migrate",
    args: "",
    summary: "apply pending migrations",
    migrates: true,
    async run(ctx) {
      // A core call, not a tool (CommandContext.migrate): it runs before any tool can.
      const applied = await ctx.migrate();
      ctx.out(applied.length ? `Applied ${applied.join(", ")}.` : "Database schema is up to date.");
      return 0;
    },
  },
  {
    name: "seed demo",
    args: "",
    summary: "seed the demo shop into an empty database",
    async run(ctx) {
      const { seeded } = await call(ctx, import("../seed-demo-tool.ts"), {});
      if (!seeded) {
        ctx.err("The database already has a catalogue (or was seeded before); seed demo only fills an empty database.");
        return 1;
      }
      await ctx.server?.catalogChanged();
      ctx.out("Seeded the demo shop.");
      return 0;
    },
  },
  {
    name: "feed acp",
    args: "DIR",
    summary: "write the ACP product feed (metadata.json, products.jsonl) into DIR",
    positionals: 1,
    paths: true,
    async run(ctx, _values, [dir]) {
      if (!dir) {
        ctx.err("shop: feed acp needs the directory to write into.");
        return 2;
      }
      const { writeAcpFeed } = await import("./acp-feed.ts");
      const { count, files } = await writeAcpFeed(await ctx.acpFeed(), path.resolve(dir));
      ctx.out(`Wrote ${count} products to ${files.join(" and ")}.`);
      return 0;
    },
  },
  {
    name: "import products",
    args: "FILE [--format jsonl|shopify] [--batch N]",
    summary: "add products from JSON Lines (products.create inputs with variants) or Shopify's product CSV; existing slugs are skipped",
    options: { format: string, batch: string },
    positionals: 1,
    paths: true,
    async run(ctx, values, [file]) {
      if (!file) return usage(ctx, "import products needs the file to read");
      if (values.format !== undefined && values.format !== "jsonl" && values.format !== "shopify") return usage(ctx, "--format is jsonl or shopify");
      const batchSize = values.batch === undefined ? 500 : Number(values.batch);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 500) return usage(ctx, "--batch is a whole number from 1 to 500");
      const { formatOf, importProductFile } = await import("./import-products.ts");
      const format = values.format ?? (await formatOf(file));
      const summary = await importProductFile(file, {
        format,
        batchSize,
        progressMs: 3_000,
        send: (products) => call(ctx, import("../tools/products/import.ts"), { products }),
        progress: (line) => ctx.err(line),
      });
      const rate = Math.round(summary.created / Math.max(summary.seconds, 0.001));
      ctx.out(
        `Imported ${summary.created} products from ${path.basename(file)} (${format}) in ${summary.seconds.toFixed(1)} s (${rate}/s); ` +
          `${summary.skipped} skipped (their slugs exist), ${summary.refused.length} lines refused.`,
      );
      for (const refusal of summary.refused.slice(0, MAX_REFUSALS_SHOWN)) ctx.out(`line ${refusal.line}: ${refusal.reason}`);
      if (summary.refused.length > MAX_REFUSALS_SHOWN) ctx.out(`… and ${summary.refused.length - MAX_REFUSALS_SHOWN} more refused lines.`);
      return summary.refused.length ? 1 : 0;
    },
  },
  {
    name: "import ucp-samples",
    args: "DIR [--currency USD]",
    summary: "load the UCP samples' CSV shop (products.csv, inventory.csv …) into an empty database, keeping its ids",
    options: { currency: string },
    positionals: 1,
    paths: true,
    async run(ctx, values, [dir]) {
      const { files, currency } = await readSampleDir(dir!, typeof values.currency === "string" ? values.currency : undefined);
      const summary = await call(ctx, import("../tools/import/ucp_samples.ts"), { files, currency });
      await ctx.server?.catalogChanged();
      ctx.out(
        `Imported ${summary.products} products, ${summary.customers} customers, ${summary.addresses} addresses, ${summary.discounts} discounts, ` +
          `${summary.promotions} promotions and ${summary.shippingRates} shipping rates; prices in ${summary.currency} without VAT.`,
      );
      return 0;
    },
  },
];

const usageLine = (c: Command) => `  ${`${c.name} ${c.args}`.trim().padEnd(38)} ${c.summary}`;
const USAGE = ["Usage: shop <command>   (shop <command> --help: that command alone)", ...COMMANDS.map(usageLine)].join("\n");
const HELP_WORDS = new Set(["help", "--help", "-h"]);

/** The command `argv` names (its first two words), if any. */
export function findCommand(argv: readonly string[]): Command | undefined {
  const name = argv.slice(0, 2).join(" ");
  return COMMANDS.find((command) => command.name === name);
}

export interface ParsedCommand {
  command: Command;
  values: Values;
  positionals: string[];
}

/** Parses one command line (without "shop"); on a usage error prints the usage and returns exit code 2, on a request for help prints it and returns 0. */
export function parseCommand(argv: readonly string[], output: CommandOutput): ParsedCommand | number {
  if (argv[0] === "help" || argv.some((arg) => arg === "--help" || arg === "-h")) return help(output, argv.filter((arg) => !HELP_WORDS.has(arg)));
  const command = findCommand(argv);
  if (!command) return usage(output, argv.length ? `unknown command "${argv.slice(0, 2).join(" ")}"` : undefined);
  try {
    const { values, positionals } = parseArgs({ args: argv.slice(2), options: command.options ?? {}, allowPositionals: true, strict: true });
    if (positionals.length > (command.positionals ?? 0)) return usage(output, `unexpected argument "${positionals.at(-1)}"`);
    return { command, values, positionals };
  } catch (error) {
    return usage(output, (error as Error).message);
  }
}

/** Parses and runs one command line; returns the exit code: 0 done, 1 refused, 2 usage. */
export async function runCommand(argv: readonly string[], ctx: CommandContext): Promise<number> {
  const parsed = parseCommand(argv, ctx);
  return typeof parsed === "number" ? parsed : runParsed(parsed, ctx);
}

/** Runs a parsed command; a refusal (ToolError: unknown scope, no such key …) prints its reason and exits 1. */
export async function runParsed({ command, values, positionals }: ParsedCommand, ctx: CommandContext): Promise<number> {
  try {
    return await command.run(ctx, values, positionals);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    ctx.err(`shop: ${error.message}`);
    for (const field of error.errors ?? []) ctx.err(`  ${field.path}: ${field.message}`);
    return 1;
  }
}

/**
 * `shop help`, `shop --help`, `shop <command> --help`, `shop help <command>`: the usage of the command named (or of
 * every command of a group, `shop keys --help`), else of them all; on stdout, since it was asked for.
 */
function help(ctx: CommandOutput, words: readonly string[]): number {
  const named = findCommand(words);
  const group = COMMANDS.filter((command) => words.length === 1 && command.name.startsWith(`${words[0]} `));
  if (named) ctx.out(`Usage: shop ${`${named.name} ${named.args}`.trim()}\n  ${named.summary}`);
  else if (group.length > 0) ctx.out(["Usage: shop <command>", ...group.map(usageLine)].join("\n"));
  else ctx.out(USAGE);
  return 0;
}

function usage(ctx: CommandOutput, problem?: string): number {
  if (problem) ctx.err(`shop: ${problem}`);
  ctx.err(USAGE);
  return 2;
}
