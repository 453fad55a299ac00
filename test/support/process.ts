// Real server processes (`node src/main.ts` on the pinned Node) for start-up, lock and crash tests.
import { spawn, type ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

export interface ShopProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first output line matching `pattern`; rejects if the process exits first or after `timeoutMs`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The exit code (or signal name) once it has exited. */
  exited: Promise<number | string>;
  /** Its base URL, once it printed its "listening on" line. */
  url(timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** The environment of a child process: ours minus anything that would pick another database, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of ["DATABASE_URL", "DATA_DIR", "VITEST", "LOG_LEVEL", "PORT", "SEED", "SESSION_SECRET", "NODE_ENV", "SHOP_ENV"]) delete base[name];
  return { ...base, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env };
}

export function spawnShop(env: Record<string, string>): ShopProcess {
  const child = spawn(process.execPath, ["src/main.ts"], { env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const wake of waiters) wake();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const wake of waiters) wake();
  });

  const line = (pattern: RegExp, timeoutMs = 90_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${text}`)), timeoutMs);
      const check = () => {
        const found = text.split("\n").find((l) => pattern.test(l));
        if (found !== undefined) finish(undefined, found);
        else if (done) finish(new Error(`the process exited before printing ${pattern}:\n${text}`));
      };
      const finish = (error?: Error, value?: string) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(value!);
      };
      waiters.add(check);
      check();
    });

  return {
    child,
    output: () => text,
    line,
    exited,
    async url(timeoutMs) {
      const listening = await line(/"message":"listening on http:\/\//, timeoutMs);
      return (JSON.parse(listening) as { url: string }).url;
    },
    async stop() {
      if (!done) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A server's output as log entries: every line it prints must be one JSON object (this throws on any other line). */
export function logEntries(output: string): Array<{ time: string; level: string; message: string } & Record<string, unknown>> {
  return output
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as { time: string; level: string; message: string };
      } catch {
        throw new Error(`a line of the server's output is not JSON: ${line}`);
      }
    });
}

const run = promisify(execFile);

/** Runs `shop …` (bin/shop.js, the way `npx shop` does) with extra environment; rejects on a non-zero exit. */
export function shopCli(env: Record<string, string>, ...args: string[]) {
  return run(process.execPath, ["bin/shop.js", ...args], { env: childEnv({ LOG_LEVEL: "silent", ...env }), timeout: 90_000 });
}
