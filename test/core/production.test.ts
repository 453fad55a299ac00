// The production profile (NODE_ENV=production or SHOP_ENV=production): what it refuses at start, one line each, what
// it only warns about, and that a production start on an empty database seeds nothing and prints only JSON lines.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { checkProfile } from "../../src/core/production.ts";
import { logEntries, spawnShop, type ShopProcess } from "../support/process.ts";

const SECRET = "s".repeat(32);
const SOUND = { NODE_ENV: "production", PUBLIC_BASE_URL: "https://shop.example.dk", SESSION_SECRET: SECRET, SMTP_URL: "smtp://mail.example.dk:587" };
const started: ShopProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((shop) => shop.stop()));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function check(env: Record<string, string>) {
  return checkProfile(loadConfig(env));
}

describe("the profile", () => {
  it("is production with NODE_ENV=production or SHOP_ENV=production; SHOP_ENV wins over NODE_ENV", () => {
    expect(loadConfig({}).profile).toBe("development");
    expect(loadConfig({ NODE_ENV: "test" }).profile).toBe("development");
    expect(loadConfig({ NODE_ENV: "production" }).profile).toBe("production");
    expect(loadConfig({ SHOP_ENV: "production" }).profile).toBe("production");
    expect(loadConfig({ NODE_ENV: "production", SHOP_ENV: "development" }).profile).toBe("development");
    expect(() => loadConfig({ SHOP_ENV: "prod" })).toThrow('SHOP_ENV must be "production" or "development", got "prod"');
  });

  it("seeds the demo shop by default in development only; SEED=demo asks for it in production", () => {
    expect(loadConfig({}).seed).toBe("demo");
    expect(loadConfig({ SEED: "none" }).seed).toBe("none");
    expect(loadConfig({ NODE_ENV: "production" }).seed).toBe("none");
    expect(loadConfig({ NODE_ENV: "production", SEED: "demo" }).seed).toBe("demo");
    expect(() => loadConfig({ SEED: "yes" })).toThrow('SEED must be "demo" or "none", got "yes"');
  });

  it("allows everything in development", () => {
    expect(check({ UCP_TEST_MODE: "1", UCP_ALLOW_LOCAL_PROFILES: "1", WEBHOOKS_ALLOW_LOCAL: "1" })).toEqual({ refusals: [], warnings: [] });
  });
});

describe("production refuses", () => {
  it("nothing and warns about nothing when the settings are sound", () => {
    expect(check(SOUND)).toEqual({ refusals: [], warnings: [] });
    expect(check({ ...SOUND, NODE_ENV: "", SHOP_ENV: "production" })).toEqual({ refusals: [], warnings: [] });
  });

  it("a local or missing PUBLIC_BASE_URL", () => {
    for (const url of [undefined, "http://localhost:3000", "https://shop.localhost", "http://127.0.0.1:8080", "http://[::1]:3000", "http://0.0.0.0"]) {
      const { refusals } = check({ ...SOUND, PUBLIC_BASE_URL: url ?? "" });
      expect(refusals, url).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL must be the shop's public address in production, not http/)]);
    }
    // A name that merely starts like one is not local.
    expect(check({ ...SOUND, PUBLIC_BASE_URL: "https://localhost-shop.dk" }).refusals).toEqual([]);
  });

  it("a missing or short SESSION_SECRET", () => {
    expect(check({ ...SOUND, SESSION_SECRET: "" }).refusals).toEqual([expect.stringMatching(/^SESSION_SECRET must be set in production/)]);
    expect(check({ ...SOUND, SESSION_SECRET: "hemmelig" }).refusals).toEqual(["SESSION_SECRET must be at least 32 characters in production, got 8"]);
  });

  it("UCP_TEST_MODE=1 and UCP_ALLOW_LOCAL_PROFILES=1, and warns about WEBHOOKS_ALLOW_LOCAL=1, MCP_ALLOWED_ORIGINS=*, http and no SMTP", () => {
    expect(check({ ...SOUND, UCP_TEST_MODE: "1", UCP_ALLOW_LOCAL_PROFILES: "1" }).refusals).toEqual([
      expect.stringMatching(/^UCP_TEST_MODE=1 is refused in production/),
      expect.stringMatching(/^UCP_ALLOW_LOCAL_PROFILES=1 is refused in production/),
    ]);
    expect(check({ ...SOUND, OAUTH_LOOPBACK_CLIENT_IDS: "1" }).refusals).toEqual([expect.stringMatching(/^OAUTH_LOOPBACK_CLIENT_IDS=1 is refused in production/)]);
    const risky = check({ ...SOUND, WEBHOOKS_ALLOW_LOCAL: "1", MCP_ALLOWED_ORIGINS: "*", PUBLIC_BASE_URL: "http://shop.example.dk", SMTP_URL: "" });
    expect(risky.refusals).toEqual([]);
    expect(risky.warnings).toEqual([
      expect.stringMatching(/^WEBHOOKS_ALLOW_LOCAL=1 in production/),
      expect.stringMatching(/^MCP_ALLOWED_ORIGINS=\* in production/),
      expect.stringMatching(/^PUBLIC_BASE_URL is http/),
      expect.stringMatching(/^SMTP_URL is not set/),
    ]);
  });
});

describe("a production server process", () => {
  function dataDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-production-"));
    dirs.push(dir);
    return dir;
  }

  it("refuses to start with each refusal as one JSON line, before it touches the data directory", { timeout: 120_000 }, async () => {
    const shop = spawnShop({ NODE_ENV: "production", DATA_DIR: dataDir(), UCP_TEST_MODE: "1" });
    started.push(shop);
    expect(await shop.exited).toBe(1);
    const messages = logEntries(shop.output()).map((entry) => entry.message);
    expect(messages).toEqual([
      expect.stringMatching(/^cannot start: PUBLIC_BASE_URL must be the shop's public address in production, not http:\/\/localhost:0 /),
      expect.stringMatching(/^cannot start: SESSION_SECRET must be set in production/),
      expect.stringMatching(/^cannot start: UCP_TEST_MODE=1 is refused in production/),
    ]);
    expect(fs.readdirSync(dirs.at(-1)!)).toEqual([]);
  });

  it("starts on an empty database without the demo shop, and prints only JSON lines, the setup link as a field", { timeout: 180_000 }, async () => {
    const shop = spawnShop({ ...SOUND, SMTP_URL: "", DATA_DIR: dataDir() });
    started.push(shop);
    const url = await shop.url();
    const listed = await fetch(`${url}/api/v1/tools/products.search`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: unknown[] }).result).toEqual([]);
    const setup = await shop.line(/"setupUrl"/);
    expect(JSON.parse(setup)).toMatchObject({ level: "info", setupUrl: expect.stringMatching(/^https:\/\/shop\.example\.dk\/admin\/setup\?token=[\w-]+$/) });
    await shop.stop();
    const entries = logEntries(shop.output());
    expect(entries.find((entry) => entry.message.startsWith("listening on"))).toMatchObject({ url, profile: "production", publicBaseUrl: "https://shop.example.dk" });
    expect(entries.map((entry) => entry.message)).toContain("SMTP_URL is not set: e-mails (sign-in codes, order confirmations) are written to DATA_DIR/outbox instead of sent");
    expect(entries.map((entry) => entry.message)).not.toContain("seeding the demo shop");
    expect(shop.output()).not.toContain("e-mails are not sent without SMTP_URL");
  });

  it("says in development where e-mails go without SMTP_URL (DATA_DIR/outbox)", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const shop = spawnShop({ SEED: "none", SMTP_URL: "", DATA_DIR: dir });
    started.push(shop);
    const said = JSON.parse(await shop.line(/e-mails are not sent/));
    const outbox = path.resolve(dir, "outbox");
    expect(said).toMatchObject({ level: "info", message: `e-mails are not sent without SMTP_URL: each is written as an .eml file to ${outbox}`, outbox });
    await shop.stop();
  });
});
