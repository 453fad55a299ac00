// The feature flags a process keeps in memory (src/tools/settings/flags.ts): read once, read again after any change,
// whoever makes it: settings.set_feature, audit.revert, plain SQL (the trigger's notice), or another process.
import { describe, expect, it } from "vitest";
import type { Database } from "../../../src/core/db.ts";
import { FeatureFlags } from "../../../src/tools/settings/flags.ts";
import { getJson } from "../../support/chat.ts";
import { expectOk } from "../../support/expect.ts";
import { startPeerServer, useServer, type TestServer } from "../../support/server.ts";
import { newSession } from "../../support/session.ts";
import { poll } from "../../support/wait.ts";

const postgres = Boolean(process.env.TEST_DATABASE_URL);

const { server, keys: { writer } } = useServer({ config: { openaiApiKey: "sk-unused" }, keys: { writer: ["features:write", "audit:revert", "audit:read"] } });

/** A FeatureFlags on the server's database that counts its reads. */
async function countingFlags(database: Database) {
  const reads = { count: 0 };
  const flags = new FeatureFlags(
    {
      query: (sql, params) => {
        reads.count++;
        return database.query(sql, params);
      },
      listen: (channel, onMessage) => database.listen(channel, onMessage),
    },
    server.runtime.log,
  );
  await flags.start();
  return { flags, reads };
}

/** Polls until `read` gives `expected` (a notice from another connection arrives a moment after its commit), for at most 2 s. */
const eventually = <T>(read: () => Promise<T>, expected: T) => poll(read, (value) => value === expected, 2000);

const setFeature = async (on: TestServer, key: string, enabled: boolean) =>
  expectOk(on, "settings.set_feature", await on.call("settings.set_feature", { key, enabled }, { key: writer }));

describe("feature flags in memory", () => {
  it("reads the flags once for any number of asks, and again after a change", async () => {
    const { flags, reads } = await countingFlags(server.database);
    try {
      expect(await Promise.all([flags.enabled("storefront_chat"), flags.enabled("product_reviews"), flags.enabled("no_such_flag")])).toEqual([true, false, false]);
      expect(await flags.enabled("storefront_chat")).toBe(true);
      expect(reads.count).toBe(1);
      await server.database.exec(`UPDATE "FeatureFlag" SET enabled = true WHERE key = 'product_reviews'`);
      expect(await eventually(() => flags.enabled("product_reviews"), true)).toBe(true);
      expect(reads.count).toBeGreaterThan(1);
    } finally {
      await server.database.exec(`UPDATE "FeatureFlag" SET enabled = false WHERE key = 'product_reviews'`);
      await flags.stop();
    }
  });

  it("a flag switched with plain SQL (psql, a script) reaches the running server", async () => {
    const status = async () => (await getJson(server, "/api/v1/chat/storefront", { cookie: await newSession(server) })).body.result.available;
    expect(await status()).toBe(true);
    await server.database.exec(`UPDATE "FeatureFlag" SET enabled = false WHERE key = 'storefront_chat'`);
    expect(await eventually(status, false)).toBe(false);
    await server.database.exec(`UPDATE "FeatureFlag" SET enabled = true WHERE key = 'storefront_chat'`);
    expect(await eventually(status, true)).toBe(true);
  });

  it("settings.set_feature and audit.revert take effect in the writing process before they answer", async () => {
    const flags = server.runtime.collaborators.flags;
    expect(await flags.enabled("admin_assistant")).toBe(true);
    await setFeature(server, "admin_assistant", false);
    expect(await flags.enabled("admin_assistant")).toBe(false);
    const [entry] = expectOk<Array<{ id: string }>>(server, "audit.list", await server.call("audit.list", { subjectType: "featureFlag", subjectId: "admin_assistant", limit: 1 }, { key: writer }));
    expectOk(server, "audit.revert", await server.call("audit.revert", { id: entry!.id }, { key: writer }));
    expect(await flags.enabled("admin_assistant")).toBe(true);
  });

  it.skipIf(!postgres)("a flag switched through one server process reaches another on the same database", async () => {
    const peer = await startPeerServer(server);
    try {
      expect(await peer.runtime.collaborators.flags.enabled("newsletter")).toBe(true);
      await setFeature(server, "newsletter", false);
      expect(await eventually(() => peer.runtime.collaborators.flags.enabled("newsletter"), false)).toBe(false);
      await setFeature(server, "newsletter", true);
      expect(await eventually(() => peer.runtime.collaborators.flags.enabled("newsletter"), true)).toBe(true);
    } finally {
      await peer.close();
    }
  });
});
