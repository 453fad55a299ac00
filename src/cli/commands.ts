// The `shop` commands, each one function over a database: the CLI runs them itself, or, while a server holds the
// embedded database, that server runs the very same function for it (src/cli/channel.ts). Add an option here, once.
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { createApiKey, listApiKeys, revokeApiKey } from "../core/api-keys.ts";
import type { Database } from "../core/db.ts";
import { ToolError } from "../core/errors.ts";
import { migrate, MIGRATION_LOCK_ID } from "../core/migrate.ts";
import { seedDemoOnce } from "../core/setup.ts";
import { upsertStaff } from "../tools/staff/service.ts";

/** Where a command writes: `out` is stdout (`keys create` prints the key as its last line), `err` is stderr. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext extends CommandOutput {
  database: Database;
  /** Set when the command runs inside a running server: its caches follow the change at once. */
  server?: {
    /** A key was revoked: forget cached key verdicts. */
    keysChanged(): void;
    /** The catalogue was replaced (seed): reload the read model. */
    catalogChanged(): Promise<void>;
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
  /** Applies migrations itself; the CLI migrates the database before any other command. */
  migrates?: boolean;
  run(ctx: CommandContext, values: Values, positionals: string[]): Promise<number>;
}

const string = { type: "string" } as const;

export const COMMANDS: readonly Command[] = [
  {
    name: "keys create",
    args: "--name NAME --scopes a,b",
    summary: "create an API key (printed once, as the last line)",
    options: { name: string, scopes: string },
    async run(ctx, values) {
      if (typeof values.name !== "string" || typeof values.scopes !== "string") return usage(ctx, "keys create needs --name and --scopes");
      const { key, info } = await createApiKey(ctx.database.prisma, values.name, values.scopes.split(","));
      ctx.out(`Created API key ${info.id} "${info.name}" with scopes ${info.scopes.join(",")}. It is shown only once:`);
      ctx.out(key);
      return 0;
    },
  },
  {
    name: "keys list",
    args: "",
    summary: "list keys (never the secrets)",
    async run(ctx) {
      const keys = await listApiKeys(ctx.database.prisma);
      if (keys.length === 0) ctx.out("No API keys.");
      for (const key of keys) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `active, last used ${key.lastUsedAt ?? "never"}`;
        ctx.out(`${key.id}\t${key.name}\t${key.prefix}\t${key.scopes.join(",")}\t${state}`);
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
      const info = await revokeApiKey(ctx.database.prisma, id);
      ctx.server?.keysChanged();
      ctx.out(`Revoked API key ${info.id} "${info.name}" at ${info.revokedAt}.`);
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
      const scopes = typeof values.scopes === "string" ? values.scopes.split(",") : undefined;
      const staff = await upsertStaff(ctx.database.prisma, { email: values.email, password: values.password, scopes }, new Date());
      const verb = staff.created ? "created" : "updated (signed out everywhere)";
      ctx.out(`Staff user ${staff.email} (${staff.id}) ${verb} with scopes ${staff.scopes.join(",")}.`);
      return 0;
    },
  },
  {
    name: "db migrate",
    args: "",
    summary: "apply pending migrations",
    migrates: true,
    async run(ctx) {
      const applied = await migrate(ctx.database);
      ctx.out(applied.length ? `Applied ${applied.join(", ")}.` : "Database schema is up to date.");
      return 0;
    },
  },
  {
    name: "seed demo",
    args: "",
    summary: "seed the demo shop into an empty database",
    async run(ctx) {
      const seeded = await ctx.database.withLock(MIGRATION_LOCK_ID, () => seedDemoOnce(ctx.database.prisma));
      if (!seeded) {
        ctx.err("The database already has a catalogue (or was seeded before); seed demo only fills an empty database.");
        return 1;
      }
      await ctx.server?.catalogChanged();
      ctx.out("Seeded the demo shop.");
      return 0;
    },
  },
];

const USAGE = ["Usage: shop <command>", ...COMMANDS.map((c) => `  ${`${c.name} ${c.args}`.trim().padEnd(38)} ${c.summary}`)].join("\n");

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

/** Parses one command line (without "shop"); on a usage error prints the usage and returns exit code 2. */
export function parseCommand(argv: readonly string[], output: CommandOutput): ParsedCommand | number {
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
    return 1;
  }
}

function usage(ctx: CommandOutput, problem?: string): number {
  if (problem) ctx.err(`shop: ${problem}`);
  ctx.err(USAGE);
  return 2;
}
