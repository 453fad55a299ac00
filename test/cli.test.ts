// The `shop` CLI with its pinned subcommands, run as a real process against an embedded database directory: on its own,
// and while a server holds that directory (the commands then run inside the server, over its local socket).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { feedMetadata, feedProduct } from "../src/api/acp/feed.ts";
import { openDatabase } from "../src/core/db.ts";
import { findActiveKey } from "../src/tools/keys/key-secrets.ts";
import { verifyPassword } from "../src/tools/staff/passwords.ts";
import { logEntries, shopCli, spawnShop, type ShopProcess } from "./support/process.ts";

const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cli-"));
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" };
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function shop(...args: string[]) {
  return run(process.execPath, ["bin/shop.js", ...args], { env, timeout: 60_000 });
}

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe("shop CLI", () => {
  it("migrates, seeds the demo shop once, creates, lists and revokes keys, creates an admin", { timeout: 300_000 }, async () => {
    expect((await shop("db", "migrate")).stdout).toMatch(/Applied 2026\d+_init|up to date/);
    expect((await shop("db", "migrate")).stdout).toMatch(/up to date/);
    expect((await shop("seed", "demo")).stdout).toMatch(/Seeded/);
    await expect(shop("seed", "demo")).rejects.toMatchObject({ code: 1 });
    // The seed left one audit entry as the local operator; the refused second one none.
    const seeds = await withDb((db) => db.prisma.auditEntry.findMany({ where: { tool: "setup.seed_demo" } }));
    expect(seeds.map((entry) => [entry.actor, entry.door, entry.subjectType, entry.subjectId])).toEqual([["system:cli", "cli", "setupStep", "demo-seed"]]);

    const created = await shop("keys", "create", "--name", "ci", "--scopes", "catalog:read,orders:read");
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^shop_[A-Za-z0-9]{8}_\S+$/);
    const verified = await withDb((db) => findActiveKey(db.prisma, key));
    expect(verified?.scopes).toEqual(["catalog:read", "orders:read"]);

    const listed = (await shop("keys", "list")).stdout;
    expect(listed).toContain("ci");
    expect(listed).not.toContain(key);
    expect((await shop("keys", "revoke", verified!.id)).stdout).toMatch(new RegExp(`^Revoked API key ${verified!.id} "ci" at 20`));
    expect(await withDb((db) => findActiveKey(db.prisma, key))).toBeNull();
    expect((await shop("keys", "list")).stdout).toMatch(new RegExp(`^${verified!.id}\tci\tshop_\\w{8}_…\tcatalog:read,orders:read\trevoked 20`, "m"));
    // Each command left an audit entry as the local operator, without the secret.
    const audit = await withDb((db) => db.prisma.auditEntry.findMany({ where: { subjectId: verified!.id }, orderBy: { createdAt: "asc" } }));
    expect(audit.map((entry) => [entry.tool, entry.actor, entry.door])).toEqual([["keys.create", "system:cli", "cli"], ["keys.revoke", "system:cli", "cli"]]);
    expect(JSON.stringify(audit)).not.toContain(key.slice(14));

    await expect(shop("keys", "create", "--name", "bad", "--scopes", "nope:read")).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/Unknown scope "nope:read"/) });
    const limited = await shop("keys", "create", "--name", "ordrer", "--scopes", "orders:read", "--toolsets", "orders,returns");
    expect(limited.stdout).toContain("limited to the toolsets orders,returns");
    expect((await withDb((db) => findActiveKey(db.prisma, limited.stdout.trim().split("\n").at(-1)!)))?.toolsets).toEqual(["orders", "returns"]);

    await expect(shop("keys", "frobnicate")).rejects.toMatchObject({ code: 2 });

    // An agent platform's key with its ACP settings (the signing secret redacted in the audit log); a bad URL makes no key.
    const agent = (await shop("keys", "create", "--name", "agent", "--scopes", "checkout:agent", "--acp-signing-secret", "acp-secret-0123456789abcdef", "--acp-webhook-url", "https://agent.example.com/acp")).stdout.trim().split("\n").at(-1)!;
    const agentKey = await withDb((db) => db.prisma.apiKey.findFirstOrThrow({ where: { name: "agent" } }));
    expect(agentKey).toMatchObject({ scopes: ["checkout:agent"], acpSigningSecret: "acp-secret-0123456789abcdef", acpWebhookUrl: "https://agent.example.com/acp" });
    expect((await withDb((db) => findActiveKey(db.prisma, agent)))?.id).toBe(agentKey.id);
    const agentAudit = await withDb((db) => db.prisma.auditEntry.findMany({ where: { subjectId: agentKey.id } }));
    expect(agentAudit.map((entry) => entry.tool).sort()).toEqual(["keys.create", "keys.set_acp"]);
    expect(JSON.stringify(agentAudit)).not.toContain("acp-secret-0123456789abcdef");
    await expect(shop("keys", "create", "--name", "badacp", "--scopes", "checkout:agent", "--acp-webhook-url", "ftp://x")).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--acp-webhook-url/) });
    expect(await withDb((db) => db.prisma.apiKey.count({ where: { name: "badacp" } }))).toBe(0);
    await expect(shop("keys", "create", "--name", "localacp", "--scopes", "checkout:agent", "--acp-webhook-url", "http://169.254.169.254/latest")).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/private or loopback/) });
    expect(await withDb((db) => db.prisma.apiKey.count({ where: { name: "localacp" } }))).toBe(0);

    await shop("admin", "create", "--email", "Ejer@Nordlys.dk", "--password", "correct horse battery");
    const admin = await withDb((db) => db.prisma.adminUser.findUniqueOrThrow({ where: { email: "ejer@nordlys.dk" } }));
    expect(await verifyPassword("correct horse battery", admin.passwordHash!)).toBe(true);
    expect(admin.passwordHash).not.toContain("correct");
    expect(admin.scopes).toEqual(["*"]);

    // --scopes limits a staff user; running it again for the same e-mail sets a new password and keeps the scopes.
    const clerk = await shop("admin", "create", "--email", "lager@nordlys.dk", "--password", "lager lager lager", "--scopes", "orders:read,orders:write");
    expect(clerk.stdout).toMatch(/created with scopes orders:read,orders:write/);
    expect((await shop("admin", "create", "--email", "lager@nordlys.dk", "--password", "nyt kodeord her")).stdout).toMatch(
      /^Staff user lager@nordlys.dk \(\w+\) updated \(signed out everywhere\) with scopes orders:read,orders:write\.$/m,
    );
    const updated = await withDb((db) => db.prisma.adminUser.findUniqueOrThrow({ where: { email: "lager@nordlys.dk" } }));
    expect(updated.scopes).toEqual(["orders:read", "orders:write"]);
    expect(await verifyPassword("nyt kodeord her", updated.passwordHash!)).toBe(true);
    await expect(shop("admin", "create", "--email", "x@nordlys.dk", "--password", "long enough pw", "--scopes", "nope:read")).rejects.toMatchObject({ code: 1 });
  });

  it("refuses an unknown key and a short password, replaces a staff user's scopes, and audits it all without secrets", { timeout: 120_000 }, async () => {
    await expect(shop("keys", "revoke", "no-such-key")).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/no API key/) });
    await expect(shop("admin", "create", "--email", "x@nordlys.dk", "--password", "short")).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/password/) });
    // --scopes on an existing user replaces them; the audit has neither password nor hash.
    await shop("admin", "create", "--email", "lager@nordlys.dk", "--password", "tredje kodeord", "--scopes", "orders:read");
    const narrowed = await withDb((db) => db.prisma.adminUser.findUniqueOrThrow({ where: { email: "lager@nordlys.dk" } }));
    expect(narrowed.scopes).toEqual(["orders:read"]);
    const staffAudit = await withDb((db) => db.prisma.auditEntry.findMany({ where: { subjectType: "adminUser" } }));
    expect(staffAudit.map((entry) => entry.tool).sort()).toEqual(["staff.create", "staff.create", "staff.reset_password", "staff.reset_password", "staff.set_scopes"]);
    const written = JSON.stringify(staffAudit);
    for (const secret of ["correct horse", "lager lager", "nyt kodeord", "tredje kodeord", narrowed.passwordHash!]) expect(written).not.toContain(secret);
  });

  it("feed acp writes metadata.json and products.jsonl: one Product per visible product, read with our zod reading", { timeout: 180_000 }, async () => {
    // Self-contained: the database may or may not be seeded by the tests before.
    await shop("db", "migrate");
    await shop("seed", "demo").catch(() => undefined);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "shop-feed-"));
    try {
      const target = path.join(out, "acp");
      const written = await shop("feed", "acp", target);
      const count = await withDb((db) => db.prisma.product.count({ where: { deletedAt: null } }));
      expect(written.stdout).toMatch(new RegExp(`^Wrote ${count} products to `));
      expect(feedMetadata.parse(JSON.parse(fs.readFileSync(path.join(target, "metadata.json"), "utf8")))).toMatchObject({ target_country: "DK" });
      const lines = fs.readFileSync(path.join(target, "products.jsonl"), "utf8").trimEnd().split("\n");
      const products = lines.map((line) => feedProduct.parse(JSON.parse(line)));
      expect(products.length).toBe(count);
      expect(products.every((product) => product.variants.length > 0 && product.variants.every((variant) => variant.price?.currency === "DKK"))).toBe(true);
      const variants = await withDb((db) => db.prisma.productVariant.findMany({ where: { product: { deletedAt: null } }, select: { id: true } }));
      const ids = new Set(products.flatMap((product) => product.variants.map((variant) => variant.id)));
      for (const variant of variants) expect(ids.has(variant.id)).toBe(true);
      await expect(shop("feed", "acp")).rejects.toMatchObject({ code: 2 });
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("works while a server runs on the embedded database: keys it creates work at once and survive the server", { timeout: 180_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cli-live-"));
    let server: ShopProcess | undefined;
    try {
      server = spawnShop({ DATA_DIR: dir });
      const url = await server.url();
      const socket = JSON.parse(fs.readFileSync(path.join(dir, "shop.lock"), "utf8")).socket as string;
      expect(fs.statSync(socket).mode & 0o777).toBe(0o600);

      const created = await shopCli({ DATA_DIR: dir }, "keys", "create", "--name", "live", "--scopes", "orders:read");
      const key = created.stdout.trim().split("\n").at(-1)!;
      const call = () => fetch(`${url}/api/v1/tools/orders.list`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{}" });
      expect((await call()).status).toBe(200);
      expect((await shopCli({ DATA_DIR: dir }, "keys", "list")).stdout).toMatch(/\tlive\t.*active, last used 20/);
      await expect(shopCli({ DATA_DIR: dir }, "keys", "create", "--name", "bad", "--scopes", "nope:read")).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/Unknown scope/) });
      await expect(shopCli({ DATA_DIR: dir }, "seed", "demo")).rejects.toMatchObject({ code: 1 });

      const second = spawnShop({ DATA_DIR: dir });
      expect(await second.exited).toBe(1);
      expect(logEntries(second.output()).map((entry) => entry.message)).toEqual([expect.stringMatching(/^cannot start: The data directory .* is in use by another shop process \(pid \d+, server\)/)]);

      await server.stop();
      expect(fs.existsSync(socket)).toBe(false);
      const listed = (await shopCli({ DATA_DIR: dir }, "keys", "list")).stdout;
      const id = /^(\S+)\tlive\t/m.exec(listed)![1]!;

      server = spawnShop({ DATA_DIR: dir });
      const again = await server.url();
      await shopCli({ DATA_DIR: dir }, "keys", "revoke", id);
      const revoked = await fetch(`${again}/api/v1/tools/orders.list`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{}" });
      expect(revoked.status).toBe(401);
    } finally {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("shop help", () => {
  it("prints every command for help, --help and -h, on stdout, and exits 0", { timeout: 60_000 }, async () => {
    for (const args of [["help"], ["--help"], ["-h"]]) {
      const { stdout, stderr } = await shop(...args);
      expect(stderr, args.join(" ")).toBe("");
      expect(stdout).toMatch(/^Usage: shop <command>/);
      for (const command of ["keys create", "keys revoke ID", "webhooks create", "admin create", "db migrate", "seed demo", "import ucp-samples DIR"]) expect(stdout).toContain(`  ${command}`);
    }
  });

  it("prints one command's usage for <command> --help and help <command>, a group's for keys --help, and runs nothing", { timeout: 60_000 }, async () => {
    const keysCreate =
      "Usage: shop keys create --name NAME --scopes a,b [--toolsets orders,returns] [--acp-signing-secret S] [--acp-webhook-url URL]\n" +
      "  create an API key (printed once, as the last line), limited to toolsets (areas) and with its ACP settings when given\n";
    expect((await shop("keys", "create", "--help")).stdout).toBe(keysCreate);
    expect((await shop("help", "keys", "create")).stdout).toBe(keysCreate);
    // --help wins over everything else on the line: no key is made even with its options given.
    expect((await shop("keys", "create", "--name", "x", "--scopes", "orders:read", "-h")).stdout).toBe(keysCreate);
    const group = (await shop("keys", "--help")).stdout.trim().split("\n");
    expect(group.slice(1).map((line) => line.trim().split(" ").slice(0, 2).join(" "))).toEqual(["keys create", "keys list", "keys revoke", "keys rotate-signing"]);
    // Unknown words with --help still get the whole usage, and still exit 0; without it they are a usage error.
    expect((await shop("frobnicate", "--help")).stdout).toMatch(/^Usage: shop <command>/);
    await expect(shop("frobnicate")).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown command "frobnicate"/) });
  });
});
