// `shop webhooks …` as a real process on an embedded database directory: on its own (events wait in the outbox for a
// server), and while a server holds the directory (the commands run inside it and its dispatcher sends at once).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../src/core/db.ts";
import { shopCli, spawnShop, type ShopProcess } from "./support/process.ts";
import { poll } from "./support/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cli-webhooks-"));
const env = { DATA_DIR: dataDir, DATABASE_URL: "", WEBHOOKS_ALLOW_LOCAL: "1" };
let receiver: WebhookReceiver;
let server: ShopProcess | undefined;

// The embedded database's CLI path: the PostgreSQL run (no PGlite template) has no directory to hand the commands.
const template = inject("pgliteTemplate");

beforeAll(async () => {
  if (!template) return;
  const database = await openDatabase({ dataDir, loadDataDir: new Blob([fs.readFileSync(template)]) });
  await database.close();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const shop = (...args: string[]) => shopCli(env, ...args);
const lastLine = (text: string) => text.trim().split("\n").at(-1)!;

describe.skipIf(!template)("shop webhooks", () => {
  it("creates, lists, tests, logs, enables, resends and deletes webhooks without a server", { timeout: 120_000 }, async () => {
    const created = await shop("webhooks", "create", "--url", "https://erp.example.dk/hooks", "--events", "order.paid,stock.low");
    const secret = lastLine(created.stdout);
    expect(secret).toMatch(/^whsec_/);
    const id = /Created webhook (\S+)/.exec(created.stdout)![1]!;
    const listed = (await shop("webhooks", "list")).stdout;
    expect(listed).toMatch(new RegExp(`^${id}\thttps://erp.example.dk/hooks\torder.paid,stock.low\tenabled`, "m"));
    expect(listed).toMatch(/^demo-webhook-erp\t.*\tdisabled /m);
    expect(listed).not.toContain(secret);

    expect((await shop("webhooks", "test", id)).stdout).toMatch(/^Queued test event \S+ to webhook/);
    expect((await shop("webhooks", "deliveries", id)).stdout).toMatch(/\twebhook.test\tpending\t0\/8\t/);
    expect((await shop("webhooks", "enable", "demo-webhook-erp")).stdout).toMatch(/is enabled/);
    expect((await shop("webhooks", "resend", "demo-webhook-delivery")).stdout).toMatch(/queued again/);
    expect((await shop("webhooks", "delete", id)).stdout).toBe(`Deleted webhook ${id}.\n`);

    await expect(shop("webhooks", "create", "--url", "https://erp.example.dk/x", "--events", "order.exploded")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown event type "order.exploded"') });
    await expect(shop("webhooks", "delete", "no-such-webhook")).rejects.toMatchObject({ code: 1 });
    await expect(shop("webhooks", "create", "--url", "https://erp.example.dk/x")).rejects.toMatchObject({ code: 2 });
  });

  it("runs inside a server holding the database, whose dispatcher sends the test event", { timeout: 180_000 }, async () => {
    server = spawnShop(env);
    await server.url();
    const created = await shop("webhooks", "create", "--url", `${receiver.url}/cli`, "--events", "order.paid");
    receiver.trust("/cli", lastLine(created.stdout));
    const id = /Created webhook (\S+)/.exec(created.stdout)![1]!;
    await shop("webhooks", "test", id);
    const [message] = await poll(async () => receiver.at("/cli"), (list) => list.length > 0, 10_000);
    expect(message?.payload).toMatchObject({ type: "webhook.test", data: { endpointId: id } });
    expect(message?.error).toBeNull();
    expect((await shop("webhooks", "deliveries", id)).stdout).toMatch(/\twebhook.test\tdelivered\t1\/8\t/);
  });
});
