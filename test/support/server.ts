// Starts a real HTTP server for one test file on its own database (cloned from the run's template) and calls it.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import crypto from "node:crypto";
import type { LanguageModel } from "ai";
import { afterAll, beforeAll, inject } from "vitest";
import { createApp } from "../../src/app.ts";
import { answerParserErrors } from "../../src/http/requests.ts";
import { attachChat } from "../../src/assistants/socket.ts";
import { loadConfig, type Config } from "../../src/core/config.ts";
import { openDatabase, type Database, type Prisma } from "../../src/core/db.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { createKey, newKeySecret } from "../../src/tools/keys/key-secrets.ts";
import type { Grant } from "../../src/tools/scopes.ts";
import { databaseUrl } from "./postgres.ts";

export interface TestServer {
  url: string;
  runtime: Runtime;
  /** The server's Prisma client, to arrange rows and check what a call wrote. */
  prisma: Prisma;
  /** The server's database, for plain SQL (`exec`, `query`) and its `kind`. */
  database: Database;
  /** POST /api/v1/tools/<name> with a JSON body; `key` adds a Bearer header, `cookie` a Cookie header. */
  call(name: string, input?: unknown, options?: CallOptions): Promise<CallResult>;
  /** Creates an API key with these scopes and returns the secret. */
  key(...scopes: string[]): Promise<string>;
  /** Revokes a key through keys.revoke (as a system caller with every scope): it stops authenticating at once. */
  revokeKey(id: string): Promise<void>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string;
  cookie?: string;
  headers?: Record<string, string>;
  /** Send this string as the raw body instead of JSON-encoding `input`. */
  raw?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // The parsed JSON body; tests assert on its shape.
  body: Record<string, unknown> & { ok?: boolean; result?: unknown; code?: string; status?: number; errors?: unknown[] };
}

/** A database of its own for this test file, cloned from the run's template (demo shop already seeded); `url` on PostgreSQL. */
export async function testDatabase(): Promise<{ database: Database; drop: () => Promise<void>; url?: string }> {
  const pgTemplate = inject("pgTemplate");
  const base = process.env.TEST_DATABASE_URL;
  if (pgTemplate && base) {
    const name = `shop_t_${crypto.randomBytes(6).toString("hex")}`;
    const admin = await openDatabase({ databaseUrl: base });
    await admin.exec(`CREATE DATABASE "${name}" TEMPLATE "${pgTemplate}"`);
    const database = await openDatabase({ databaseUrl: databaseUrl(base, name) });
    databaseUrls.set(database, databaseUrl(base, name));
    return {
      database,
      url: databaseUrl(base, name),
      drop: async () => {
        await database.close();
        await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.close();
      },
    };
  }
  const template = inject("pgliteTemplate");
  const database = await openDatabase({ loadDataDir: new Blob([fs.readFileSync(template)]) });
  return { database, drop: () => database.close() };
}

/**
 * A database of its own for shop processes the test spawns (spawnShop), seeded like testDatabase's: their environment
 * names it (DATABASE_URL on PostgreSQL, else DATA_DIR holding a copy of the PGlite template). `arrange` runs on it
 * first (keys, rows); on PGlite it is closed again before a process may open the directory.
 */
export async function processDatabase<T = void>(arrange?: (database: Database) => Promise<T>): Promise<{ env: { DATABASE_URL: string } | { DATA_DIR: string }; arranged: T; drop: () => Promise<void> }> {
  if (inject("pgTemplate") && process.env.TEST_DATABASE_URL) {
    const { database, url, drop } = await testDatabase();
    return { env: { DATABASE_URL: url! }, arranged: (await arrange?.(database)) as T, drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-process-"));
  const database = await openDatabase({ dataDir: dir, loadDataDir: new Blob([fs.readFileSync(inject("pgliteTemplate"))]) });
  try {
    return { env: { DATA_DIR: dir }, arranged: (await arrange?.(database)) as T, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await database.close();
  }
}

export interface StartOptions {
  /** Share rate-limit counters and socket.io rooms with other servers started with the same prefix (Redis only). */
  rateLimitPrefix?: string;
  /** The server's clock (sessions, expiry); the real one by default. */
  now?: () => Date;
  /** The assistants' model instead of a configured provider: a scripted one (fakeModel() in fake-model.ts, or ai/test's mock). */
  model?: LanguageModel;
  /** Listen on this port (0, any free one, by default): a test whose PUBLIC_BASE_URL must be the server's own address. */
  port?: number;
}

/** A port free right now on 127.0.0.1 (for StartOptions.port, when PUBLIC_BASE_URL must name the server's address). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(overrides: Partial<Config> = {}, options: StartOptions = {}): Promise<TestServer> {
  const { database, drop } = await testDatabase();
  return serve(database, drop, overrides, options);
}

/** PostgreSQL URLs of the databases testDatabase() created, so a peer server can open its own pool on one. */
const databaseUrls = new WeakMap<Database, string>();

/**
 * PostgreSQL only (TEST_DATABASE_URL): a second server process on the same database as `first` (its own pool,
 * read model and LISTEN connection), for cross-process tests. Closing it leaves the database to `first`.
 */
export async function startPeerServer(first: TestServer, overrides: Partial<Config> = {}, options: StartOptions = {}): Promise<TestServer> {
  const url = databaseUrls.get(first.database);
  if (!url) throw new Error("startPeerServer needs a PostgreSQL test database (set TEST_DATABASE_URL).");
  const database = await openDatabase({ databaseUrl: url });
  return serve(database, () => database.close(), overrides, options);
}

async function serve(database: Database, drop: () => Promise<void>, overrides: Partial<Config>, options: StartOptions): Promise<TestServer> {
  // Its own DATA_DIR, for the mail outbox (.eml files) of this server alone.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  const config: Config = {
    ...loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent", VITEST: "true" }),
    dataDir,
    databaseUrl: undefined,
    seed: "none",
    rateLimitAnonPerMin: 100_000,
    rateLimitKeyPerMin: 100_000,
    rateLimitAuthFailuresPerMin: 100_000,
    ...overrides,
  };
  const prefix = options.rateLimitPrefix ?? `shop:test:${crypto.randomBytes(6).toString("hex")}:`;
  const runtime = await createRuntime({ config, database, rateLimitPrefix: prefix, redisPrefix: prefix, ...(options.now ? { now: options.now } : {}), model: options.model });
  const app = createApp(runtime);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port ?? 0, "127.0.0.1", () => resolve(listening));
  });
  answerParserErrors(server);
  const chat = await attachChat(server, runtime);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    runtime,
    get prisma() {
      return database.prisma;
    },
    database,
    async call(name, input = {}, options = {}) {
      const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (options.cookie) headers.cookie = options.cookie;
      const response = await fetch(`${url}/api/v1/tools/${name}`, {
        method: "POST",
        headers,
        body: options.raw ?? JSON.stringify(input),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
    },
    async key(...scopes) {
      const { secret } = await createKey(database.prisma, `test ${scopes.join(",")}`, scopes as Grant[]);
      return secret;
    },
    async revokeKey(id) {
      await runtime.executor.invoke({ name: "keys.revoke", input: { id }, caller: { kind: "system", actor: "system:test", scopes: new Set(["*"]) }, door: "system" });
    },
    async close() {
      server.closeAllConnections();
      await chat.close();
      await runtime.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface UseServerOptions<K extends string> {
  /** Config overrides; a function when they name something an earlier beforeAll started (a fake's url). */
  config?: Partial<Config> | (() => Partial<Config>);
  start?: StartOptions;
  /** API keys by name, each with its scopes; created in this order when the server starts. */
  keys?: Record<K, readonly Grant[]>;
}

/**
 * One server for this test file: registers the beforeAll that starts it (and creates its keys) and the afterAll that
 * closes it. `server` may be used from any hook or test after that beforeAll; the key secrets are known at once, so
 * they can be destructured: `const { server, keys: { reader } } = useServer({ keys: { reader: ["orders:read"] } })`.
 */
export function useServer<K extends string = never>(options: UseServerOptions<K> = {}): { server: TestServer; keys: Record<K, string> } {
  const wanted = Object.entries<readonly Grant[]>(options.keys ?? {}).map(([name, scopes]) => ({ name, scopes, secret: newKeySecret() }));
  let started: TestServer | undefined;
  beforeAll(async () => {
    const overrides = typeof options.config === "function" ? options.config() : options.config;
    started = await startServer(overrides, options.start);
    for (const { scopes, secret } of wanted) await storeKey(started, secret, scopes);
  });
  afterAll(() => started?.close());
  const get = (): TestServer => {
    if (!started) throw new Error("The test server starts in beforeAll; use it inside a hook or a test.");
    return started;
  };
  const server: TestServer = {
    get url() {
      return get().url;
    },
    get runtime() {
      return get().runtime;
    },
    get prisma() {
      return get().prisma;
    },
    get database() {
      return get().database;
    },
    call: (name, input, callOptions) => get().call(name, input, callOptions),
    key: (...scopes) => get().key(...scopes),
    revokeKey: (id) => get().revokeKey(id),
    close: () => get().close(),
  };
  return { server, keys: Object.fromEntries(wanted.map(({ name, secret }) => [name, secret])) as Record<K, string> };
}

/** Stores a key with a secret chosen beforehand (name as server.key names it). */
async function storeKey(server: TestServer, secret: string, scopes: readonly Grant[]): Promise<void> {
  await createKey(server.prisma, `test ${scopes.join(",")}`, scopes, secret);
}
