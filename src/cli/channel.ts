// The local-only CLI channel of a server on the embedded database: HTTP over a Unix socket (mode 0600, never TCP), so
// `shop …` commands run inside the process that holds the data directory instead of opening it a second time.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { runCommand, type CommandContext } from "./commands.ts";

/** What a command run through the channel printed, and its exit code. */
export interface Ran {
  code: number;
  stdout: string[];
  stderr: string[];
}

const MAX_REQUEST_BYTES = 64 * 1024;
/** Unix socket paths are limited to about 104 bytes; longer data directories get a socket in the temp directory. */
const MAX_SOCKET_PATH = 100;

/** Where a server on `dataDir` listens (advertised in the data-directory lock, so clients never guess). */
export function socketPathFor(dataDir: string): string {
  const inside = path.join(dataDir, "shop.sock");
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  return path.join(os.tmpdir(), `shop-${crypto.createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}.sock`);
}

/** Serves `POST /commands {argv}` on a Unix socket only this OS user can open; each command runs with `context`. */
export async function serveCommands(context: Omit<CommandContext, "out" | "err">, socketPath: string): Promise<{ path: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    void answer(context, req, res);
  });
  // The socket file exists only while its holder runs; one left by a killed server is stale (we hold the data dir).
  fs.rmSync(socketPath, { force: true });
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(context: Omit<CommandContext, "out" | "err">, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (req.method !== "POST" || req.url !== "/commands") return void send(404, { error: "POST /commands only" });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return void send(413, { error: "request too large" });
    chunks.push(chunk);
  }
  let argv: unknown;
  try {
    argv = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { argv?: unknown }).argv;
  } catch {
    return void send(400, { error: "body must be JSON {argv: string[]}" });
  }
  if (!Array.isArray(argv) || argv.length > 100 || !argv.every((arg) => typeof arg === "string")) return void send(400, { error: "argv must be an array of strings" });
  const ran: Ran = { code: 1, stdout: [], stderr: [] };
  try {
    ran.code = await runCommand(argv, { ...context, out: (line) => ran.stdout.push(line), err: (line) => ran.stderr.push(line) });
  } catch (error) {
    ran.stderr.push(`shop: ${error instanceof Error ? error.message : String(error)}`);
  }
  send(200, ran);
}

/** Runs a command line in the server listening on `socketPath`; rejects when nothing answers there. */
export function sendCommand(socketPath: string, argv: readonly string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, path: "/commands", method: "POST", headers: { "content-type": "application/json" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Ran & { error?: string };
          if (response.statusCode !== 200) reject(new Error(`The server refused the command: ${body.error ?? response.statusCode}`));
          else resolve(body);
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.on("error", reject);
    request.end(JSON.stringify({ argv }));
  });
}
