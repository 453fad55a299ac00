// Rotation of the shop's UCP signing keys on a real database with an injected clock: by age (published ahead, then
// signing, the old key kept for the grace period and then deleted), on demand (with and without revoking), processes
// converging within the cache TTL, and processes racing to rotate ending with one current key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../../src/core/db.ts";
import { DAY_MS, SigningKeys, type KeyPolicy } from "../../../src/tools/keys/signing-keys.ts";
import { testDatabase } from "../../support/server.ts";

const MINUTE = 60_000;
let database: Database;
let drop: () => Promise<void>;
let clock: number;

beforeAll(async () => {
  ({ database, drop } = await testDatabase());
});
afterAll(() => drop());
beforeEach(async () => {
  await database.prisma.signingKey.deleteMany({});
  clock = Date.parse("2026-12-01T12:00:00Z");
});

/** A process's key cache, on the shared test clock. */
const instance = (policy: Partial<KeyPolicy> = {}) => new SigningKeys(database.prisma, { now: () => new Date(clock), ...policy });
const kids = async (keys: SigningKeys) => (await keys.published()).map((jwk) => jwk.kid);
const rows = () => database.prisma.signingKey.findMany({ orderBy: { createdAt: "asc" }, select: { kid: true, slot: true, retiredAt: true } });

describe("rotation by age", () => {
  it("publishes a new key ahead, lets it sign after the lead, keeps the old one 7 days and then deletes it", async () => {
    const keys = instance();
    const first = (await keys.current()).kid;
    clock += 89 * DAY_MS;
    expect((await keys.current()).kid).toBe(first);
    expect(await kids(keys)).toEqual([first]);

    // Due: a next key is published alongside, but the old one still signs until caches have seen the new one.
    clock += DAY_MS;
    const [, next] = await kids(keys);
    expect(next).toBeDefined();
    expect(await kids(keys)).toEqual([first, next]);
    expect((await keys.current()).kid).toBe(first);

    clock += 10 * MINUTE;
    expect((await keys.current()).kid).toBe(next);
    expect(await kids(keys)).toEqual([next, first]);
    expect(await rows()).toEqual([
      { kid: first, slot: null, retiredAt: new Date(clock) },
      { kid: next, slot: "current", retiredAt: null },
    ]);

    clock += 7 * DAY_MS - MINUTE;
    expect(await kids(keys)).toEqual([next, first]);
    clock += 2 * MINUTE;
    expect(await kids(keys)).toEqual([next]);
    expect(await rows()).toEqual([{ kid: next, slot: "current", retiredAt: null }]);
  });

  it("never rotates with a rotation age of 0", async () => {
    const keys = instance({ rotateAfterMs: 0 });
    const first = (await keys.current()).kid;
    clock += 1000 * DAY_MS;
    expect(await kids(keys)).toEqual([first]);
    expect((await keys.current()).kid).toBe(first);
  });

  it("publishes only public halves", async () => {
    const keys = instance();
    await keys.current();
    clock += 90 * DAY_MS;
    for (const jwk of await keys.published()) expect(Object.keys(jwk).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);
  });
});

describe("several processes", () => {
  it("follow a rotation made by another within the cache TTL, without a restart", async () => {
    const a = instance();
    const b = instance();
    const first = (await a.current()).kid;
    expect((await b.current()).kid).toBe(first);
    const { kid } = await a.rotate();
    expect((await a.current()).kid).toBe(kid);
    // b still signs with what it read less than a minute ago, then reads again.
    clock += 30_000;
    expect((await b.current()).kid).toBe(first);
    clock += 31_000;
    expect((await b.current()).kid).toBe(kid);
    expect(await kids(b)).toEqual([kid, first]);
  });

  it("racing on a due key publish one next key and promote it once", async () => {
    const racers = Array.from({ length: 4 }, () => instance());
    const first = (await racers[0]!.current()).kid;
    clock += 90 * DAY_MS;
    await Promise.all(racers.map((keys) => keys.published()));
    expect(await database.prisma.signingKey.count({ where: { slot: "next" } })).toBe(1);
    clock += 10 * MINUTE;
    const signing = await Promise.all(racers.map(async (keys) => (await keys.current()).kid));
    expect(new Set(signing).size).toBe(1);
    expect(signing[0]).not.toBe(first);
    expect(await rows()).toEqual([
      { kid: first, slot: null, retiredAt: new Date(clock) },
      { kid: signing[0], slot: "current", retiredAt: null },
    ]);
  });

  it("racing on demand end with exactly one current key, each rotation replacing the one before", async () => {
    const [a, b] = [instance(), instance()];
    const first = (await a.current()).kid;
    const [one, two] = await Promise.all([a.rotate(), b.rotate()]);
    expect(await database.prisma.signingKey.count({ where: { slot: "current" } })).toBe(1);
    expect(await database.prisma.signingKey.count()).toBe(3);
    const previous = [one.previous, two.previous].sort();
    expect(previous).toContain(first);
    expect(new Set([first, one.kid, two.kid]).size).toBe(3);
  });
});

describe("rotation on demand", () => {
  it("makes the first key when there is none", async () => {
    const rotation = await instance().rotate();
    expect(rotation).toMatchObject({ previous: undefined, deleted: [], publishedUntil: undefined });
    expect(await rows()).toEqual([{ kid: rotation.kid, slot: "current", retiredAt: null }]);
  });

  it("keeps the old key published for the grace period", async () => {
    const keys = instance();
    const first = (await keys.current()).kid;
    const rotation = await keys.rotate();
    expect(rotation).toEqual({ kid: expect.any(String), previous: first, deleted: [], publishedUntil: new Date(clock + 7 * DAY_MS) });
    expect(await kids(keys)).toEqual([rotation.kid, first]);
  });

  it("lets a key already published ahead take over", async () => {
    const keys = instance();
    await keys.current();
    clock += 90 * DAY_MS;
    const [, next] = await kids(keys);
    expect((await keys.rotate()).kid).toBe(next);
  });

  it("with revoke deletes the old key and every other kept key at once", async () => {
    const keys = instance({ graceMs: 100 * DAY_MS });
    await keys.current();
    await keys.rotate();
    clock += 90 * DAY_MS;
    await keys.published();
    expect(await database.prisma.signingKey.count()).toBe(3);
    const rotation = await keys.rotate({ revoke: true });
    expect(rotation.deleted).toHaveLength(3);
    expect(rotation.publishedUntil).toBeUndefined();
    expect(await kids(keys)).toEqual([rotation.kid]);
    expect(await rows()).toEqual([{ kid: rotation.kid, slot: "current", retiredAt: null }]);
  });
});
