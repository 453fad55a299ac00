// `shop keys rotate-signing [--revoke]` as a real process on an embedded database directory: on its own (the table
// changes; a revoke deletes the old key), and while a server holds the directory (the server publishes and signs with
// the new key at once, not after its cache TTL). Only kids are printed, never key material.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../src/core/db.ts";
import { shopCli, spawnShop, type ShopProcess } from "./support/process.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cli-signing-"));
const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
let server: ShopProcess | undefined;

// The embedded database's CLI path: the PostgreSQL run (no PGlite template) has no directory to hand the commands.
const template = inject("pgliteTemplate");

beforeAll(async () => {
  if (!template) return;
  const database = await openDatabase({ dataDir, loadDataDir: new Blob([fs.readFileSync(template)]) });
  await database.close();
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const shop = (...args: string[]) => shopCli(env, ...args);

/** The keys.rotate_signing audit entries: tool, actor, door, the kid made and the one it replaced. */
async function rotations(): Promise<Array<[string, string, string, string | null, unknown, unknown]>> {
  const database = await openDatabase({ dataDir });
  try {
    const found = await database.prisma.auditEntry.findMany({ where: { tool: "keys.rotate_signing" }, orderBy: { createdAt: "asc" } });
    return found.map((entry) => [entry.tool, entry.actor, entry.door, entry.subjectId, entry.before, entry.after]);
  } finally {
    await database.close();
  }
}

async function rows(): Promise<Array<{ kid: string; slot: string | null; retired: boolean }>> {
  const database = await openDatabase({ dataDir });
  try {
    const found = await database.prisma.signingKey.findMany({ orderBy: { createdAt: "asc" } });
    return found.map((row) => ({ kid: row.kid, slot: row.slot, retired: row.retiredAt !== null }));
  } finally {
    await database.close();
  }
}

/** No PEM, no JWK private member: the output names kids only. */
function expectNoKeyMaterial(text: string): void {
  expect(text).not.toMatch(/PRIVATE KEY|"d"\s*:|BEGIN /);
}

describe.skipIf(!template)("shop keys rotate-signing", () => {
  it("makes, rotates and, with --revoke, rotates and deletes the old keys, without a server", { timeout: 120_000 }, async () => {
    const made = await shop("keys", "rotate-signing");
    const first = /made (\S+), which signs/.exec(made.stdout)?.[1];
    expect(first, made.stdout).toBeDefined();

    const rotated = await shop("keys", "rotate-signing");
    const match = /^Signing key (\S+) signs from now on; (\S+) stays published until (\S+)\.$/m.exec(rotated.stdout);
    expect(match, rotated.stdout).not.toBeNull();
    const [, second, previous, until] = match!;
    expect(previous).toBe(first);
    expect(Date.parse(until!) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 120_000);
    expect(await rows()).toEqual([
      { kid: first, slot: null, retired: true },
      { kid: second, slot: "current", retired: false },
    ]);

    const revoked = await shop("keys", "rotate-signing", "--revoke");
    const third = /^Signing key (\S+) signs from now on; deleted (.+) at once\.$/m.exec(revoked.stdout);
    expect(third, revoked.stdout).not.toBeNull();
    expect(third![2]!.split(", ").sort()).toEqual([first, second].sort());
    expect(await rows()).toEqual([{ kid: third![1], slot: "current", retired: false }]);
    for (const output of [made, rotated, revoked]) expectNoKeyMaterial(output.stdout + output.stderr);
    // Each rotation left an audit entry as the local operator, naming kids only.
    const audit = await rotations();
    expect(audit).toEqual([
      ["keys.rotate_signing", "system:cli", "cli", first, { current: null }, { current: first, deleted: [], publishedUntil: null }],
      ["keys.rotate_signing", "system:cli", "cli", second, { current: first }, { current: second, deleted: [], publishedUntil: until }],
      ["keys.rotate_signing", "system:cli", "cli", third![1], { current: second }, { current: third![1], deleted: third![2]!.split(", "), publishedUntil: null }],
    ]);
    expectNoKeyMaterial(JSON.stringify(audit));

    await expect(shop("keys", "rotate-signing", "--revoke=yes")).rejects.toMatchObject({ code: 2 });
    await expect(shop("keys", "rotate-signing", "now")).rejects.toMatchObject({ code: 2 });
    expect((await shop("keys", "rotate-signing", "--help")).stdout).toMatch(/^Usage: shop keys rotate-signing \[--revoke\]/);
  });

  it("runs inside a server holding the database, which publishes the new key at once", { timeout: 180_000 }, async () => {
    server = spawnShop(env);
    const url = await server.url();
    const published = async () => ((await (await fetch(`${url}/.well-known/ucp`)).json()) as { signing_keys: Array<{ kid: string }> }).signing_keys.map((key) => key.kid);
    const [before] = await published();
    const rotated = await shop("keys", "rotate-signing");
    const kid = /^Signing key (\S+) signs from now on/.exec(rotated.stdout)?.[1];
    expect(await published()).toEqual([kid, before]);
    const revoked = await shop("keys", "rotate-signing", "--revoke");
    const newest = /^Signing key (\S+) signs from now on; deleted/.exec(revoked.stdout)?.[1];
    expect(await published()).toEqual([newest]);
    expectNoKeyMaterial(server.output() + rotated.stdout + revoked.stdout);
    // The server ran them through its executor: audited as the local operator's, door "cli".
    await server.stop();
    server = undefined;
    expect((await rotations()).slice(-2).map(([tool, actor, door, kid]) => [tool, actor, door, kid])).toEqual([
      ["keys.rotate_signing", "system:cli", "cli", kid],
      ["keys.rotate_signing", "system:cli", "cli", newest],
    ]);
  });
});
