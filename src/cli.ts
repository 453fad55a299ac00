// The `shop` command line: runs a command on the database itself or, while a server holds the embedded database,
// inside that server through its local channel (PGlite allows one process per data directory).
import "./node-check.ts";
import path from "node:path";
import v8 from "node:v8";
import { setTimeout as sleep } from "node:timers/promises";
import { sendCommand } from "./cli/channel.ts";
import { parseCommand, runParsed, type CommandOutput, type ParsedCommand } from "./cli/commands.ts";
import { loadConfig, type Config } from "./core/config.ts";
import { DataDirBusy, dataDirHolder } from "./core/data-lock.ts";
import { openDatabase } from "./core/db.ts";
import { migrate } from "./core/migrate.ts";
import type { Executor } from "./tools/executor.ts";

/**
 * V8 compiles a WebAssembly function with its optimising compiler once the function has run ~13 MB of its code
 * (--wasm-tiering-budget). A command's one-off work in PGlite and Prisma's query compiler passed that within a second,
 * and the optimising compile of one large PGlite function then took ~0.5 s of CPU and ~550 MB at its peak for a command
 * over in two seconds (docs/benchmarks.md, "The embedded default"). With 150 times the budget a command runs on V8's
 * baseline code; a long one (an import of many products) still has its hot functions optimised, later. Set here, before
 * any WebAssembly is compiled (PGlite and Prisma load with the command's first database work).
 */
const CLI_WASM_TIERING_BUDGET = 2_000_000_000;
v8.setFlagsFromString(`--wasm-tiering-budget=${CLI_WASM_TIERING_BUDGET}`);

/** How long to wait for a server that holds the data directory but does not answer yet (starting, seeding). */
const WAIT_MS = 60_000;

const print: CommandOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, print);
  if (typeof parsed === "number") return parsed;
  const config = loadConfig();
  if (config.databaseUrl) return runHere(config, parsed);
  const deadline = Date.now() + WAIT_MS;
  let told = false;
  for (;;) {
    const holder = dataDirHolder(config.dataDir);
    if (!holder) {
      try {
        return await runHere(config, parsed);
      } catch (error) {
        if (!(error instanceof DataDirBusy)) throw error; // a server took the directory this instant: ask it instead
        continue;
      }
    }
    if (holder.socket) {
      try {
        const ran = await sendCommand(holder.socket, parsed.command.paths ? absolutePaths(argv, parsed.positionals) : argv);
        ran.stdout.forEach(print.out);
        ran.stderr.forEach(print.err);
        return ran.code;
      } catch (error) {
        if (!isGone(error)) throw error; // else the server stopped this instant: look again
      }
    }
    if (Date.now() > deadline) throw new DataDirBusy(config.dataDir, holder);
    if (!told) print.err(`Waiting for the shop process holding ${config.dataDir} (pid ${holder.pid}, ${holder.what}) …`);
    told = true;
    await sleep(200);
  }
}

/** The command line with its path positionals resolved against this process's directory (the server's is another). */
function absolutePaths(argv: string[], positionals: string[]): string[] {
  return argv.map((word, index) => (index >= 2 && positionals.includes(word) ? path.resolve(word) : word));
}

/** Opens the database in this process (taking the data directory), migrates it and runs the command. */
async function runHere(config: Config, parsed: ParsedCommand): Promise<number> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, holder: `shop ${parsed.command.name}` });
  try {
    if (!parsed.command.migrates) await migrate(database);
    let executor: Promise<Executor> | undefined;
    // The commands get what they need from here, never the database: src/operator.ts builds it when one asks.
    const operator = () => import("./operator.ts");
    return await runParsed(parsed, {
      ...print,
      migrate: () => migrate(database),
      acpFeed: () => operator().then(({ operatorAcpFeed }) => operatorAcpFeed(config, database)),
      executor: () => (executor ??= operator().then(({ operatorExecutor }) => operatorExecutor(config, database))),
    });
  } finally {
    await database.close();
  }
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ECONNREFUSED" || code === "ENOENT" || code === "ECONNRESET";
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`shop: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
