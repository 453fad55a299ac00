// The shop's own signing keys (ES256 on P-256), which the UCP door signs its webhooks and answers with and publishes in
// its profiles. Kept in the SigningKey table so every process signs with the same key, and rotated as the UCP spec
// asks: a new key is published ahead of signing ("next"), then signs ("current"), and the replaced key stays published
// for a grace period before it is deleted. Each process re-reads the table at most once a TTL, so all of them follow a
// rotation without a restart. Only public halves (JWKs) ever leave this module.
import crypto from "node:crypto";
import type { PrismaClient, SigningKey } from "../../generated/prisma/client.ts";
import type { Db } from "../../core/db.ts";
import type { Logger } from "../../core/log.ts";

export interface PublicJwk {
  kid: string;
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
  use: "sig";
  alg: "ES256";
}

export interface ShopKey {
  kid: string;
  privateKey: crypto.KeyObject;
  publicJwk: PublicJwk;
}

export const DAY_MS = 86_400_000;

export interface KeyPolicy {
  /** Age at which the current key is replaced; 0 never (SIGNING_KEY_ROTATION_DAYS). */
  rotateAfterMs: number;
  /** How long a replaced key stays published (the spec's minimum is 7 days). */
  graceMs: number;
  /** How long a new key is published before it signs: longer than the profile's max-age (300 s) plus `ttlMs`. */
  leadMs: number;
  /** How long a process uses what it read before it reads the table again. */
  ttlMs: number;
  now: () => Date;
  log?: Logger;
}

/** How long a replaced key stays published by default (the spec's minimum). */
export const SIGNING_KEY_GRACE_MS = 7 * DAY_MS;

const DEFAULTS: KeyPolicy = { rotateAfterMs: 90 * DAY_MS, graceMs: SIGNING_KEY_GRACE_MS, leadMs: 10 * 60_000, ttlMs: 60_000, now: () => new Date() };

/** What an on-demand rotation did: the key that signs now, the one it replaced, and the keys it deleted. */
export interface Rotation {
  kid: string;
  previous: string | undefined;
  /** Deleted at once (revoke): the replaced key and any other key still kept. */
  deleted: string[];
  /** Until when the replaced key stays published (not when revoked). */
  publishedUntil: Date | undefined;
}

const CURRENT = "current";
const NEXT = "next";

interface Snapshot {
  readAt: number;
  key: ShopKey;
  published: PublicJwk[];
}

/** Another process changed the keys between our read and our write: read again (in a new transaction). */
export class SigningKeysRaced extends Error {
  constructor() {
    super("The signing keys changed meanwhile.");
  }
}

/** The RFC 7638 thumbprint of an EC public key: a stable kid that names the key itself. */
function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return crypto.createHash("sha256").update(canonical).digest("base64url");
}

/** A fresh key pair as a row for `slot`. */
function newRow(slot: string, createdAt: Date) {
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const exported = publicKey.export({ format: "jwk" }) as { crv: string; kty: string; x: string; y: string };
  const kid = thumbprint(exported);
  const publicJwk: PublicJwk = { kid, kty: "EC", crv: "P-256", x: exported.x, y: exported.y, use: "sig", alg: "ES256" };
  return { kid, slot, publicJwk: { ...publicJwk }, privateKey: privateKey.export({ format: "pem", type: "pkcs8" }) as string, createdAt };
}

export class SigningKeys {
  private readonly prisma: PrismaClient;
  private readonly policy: KeyPolicy;
  private snapshot: Snapshot | undefined;
  private reading: Promise<Snapshot> | undefined;

  constructor(prisma: PrismaClient, policy: Partial<KeyPolicy> = {}) {
    this.prisma = prisma;
    this.policy = { ...DEFAULTS, ...policy };
  }

  /** The key that signs now, made (once, whichever process gets there first) when the shop has none. */
  async current(): Promise<ShopKey> {
    return (await this.read()).key;
  }

  /** The public keys to publish (`signing_keys`): the current one first, a next one, replaced ones still in grace. */
  async published(): Promise<PublicJwk[]> {
    return (await this.read()).published;
  }

  /**
   * Replaces the current key now (operator command): a key already published as next takes over, else a new one.
   * `revoke` (a compromise) deletes every other key at once: they all sit in one table, so what exposed one exposed all.
   */
  async rotate({ revoke = false }: { revoke?: boolean } = {}): Promise<Rotation> {
    for (let attempt = 1; ; attempt++) {
      try {
        const rotation = await this.rotateOnce(revoke);
        this.snapshot = undefined;
        this.reading = undefined;
        this.policy.log?.info("signing key rotated", { kid: rotation.kid, previous: rotation.previous, deleted: rotation.deleted });
        return rotation;
      } catch (error) {
        if (!(error instanceof SigningKeysRaced) || attempt === 3) throw error;
      }
    }
  }

  /** The last snapshot while it is younger than the TTL; else one read of the table (shared by concurrent callers). */
  private read(): Promise<Snapshot> {
    const now = this.policy.now().getTime();
    if (this.snapshot && now - this.snapshot.readAt < this.policy.ttlMs) return Promise.resolve(this.snapshot);
    if (!this.reading) {
      // A read that a rotation in this process overtook (it drops `reading`) must not store what it saw.
      const reading: Promise<Snapshot> = this.load()
        .then((snapshot) => {
          if (this.reading === reading) this.snapshot = snapshot;
          return snapshot;
        })
        .finally(() => {
          if (this.reading === reading) this.reading = undefined;
        });
      this.reading = reading;
    }
    return this.reading;
  }

  /** Reads the keys, taking whichever rotation step is due first; every step is a no-op for all but one process. */
  private async load(): Promise<Snapshot> {
    const now = this.policy.now();
    // At most four steps: delete keys past their grace, make the first key, publish a next one, let it sign.
    for (let step = 0; ; step++) {
      const rows = await this.prisma.signingKey.findMany({ orderBy: { createdAt: "desc" } });
      const action = step < 4 ? this.dueStep(rows, now) : undefined;
      if (!action) return this.snapshotOf(rows, now);
      await action();
    }
  }

  private expired(row: SigningKey, now: Date): boolean {
    return row.slot === null && row.retiredAt !== null && row.retiredAt.getTime() < now.getTime() - this.policy.graceMs;
  }

  private dueStep(rows: SigningKey[], now: Date): (() => Promise<void>) | undefined {
    const expired = rows.filter((row) => this.expired(row, now)).map((row) => row.kid);
    if (expired.length > 0) return async () => void (await this.prisma.signingKey.deleteMany({ where: { kid: { in: expired }, slot: null } }));
    const current = rows.find((row) => row.slot === CURRENT);
    // Two processes may race here: the unique slot lets one insert win, and both then read the winner.
    if (!current) return async () => void (await this.prisma.signingKey.createMany({ data: [newRow(CURRENT, now)], skipDuplicates: true }));
    const { rotateAfterMs, leadMs } = this.policy;
    if (rotateAfterMs === 0 || now.getTime() - current.createdAt.getTime() < rotateAfterMs) return undefined;
    const next = rows.find((row) => row.slot === NEXT);
    if (!next) return () => this.publishNext(current.kid, now);
    if (now.getTime() - next.createdAt.getTime() >= leadMs) return () => this.promote(current.kid, next.kid, now);
    return undefined;
  }

  /** Publishes a next key for `currentKid`, only while that key still signs (its row is held, so no promotion slips in). */
  private async publishNext(currentKid: string, now: Date): Promise<void> {
    const row = newRow(NEXT, now);
    const made = await this.prisma.$transaction(async (tx) => {
      const held = await tx.signingKey.updateMany({ where: { kid: currentKid, slot: CURRENT }, data: { slot: CURRENT } });
      return held.count === 1 ? (await tx.signingKey.createMany({ data: [row], skipDuplicates: true })).count : 0;
    });
    if (made === 1) this.policy.log?.info("signing key published ahead of rotation", { kid: row.kid, replaces: currentKid });
  }

  /** The next key signs from now on and the current one is retired; the conditional update lets one process do it. */
  private async promote(currentKid: string, nextKid: string, now: Date): Promise<void> {
    const promoted = await this.prisma.$transaction(async (tx) => {
      const retired = await tx.signingKey.updateMany({ where: { kid: currentKid, slot: CURRENT }, data: { slot: null, retiredAt: now } });
      if (retired.count === 0) return false;
      const moved = await tx.signingKey.updateMany({ where: { kid: nextKid, slot: NEXT }, data: { slot: CURRENT } });
      if (moved.count === 0) throw new Error("the next signing key was deleted while it was being promoted");
      return true;
    });
    if (promoted) this.policy.log?.info("signing key rotated", { kid: nextKid, previous: currentKid });
  }

  private rotateOnce(revoke: boolean): Promise<Rotation> {
    return this.prisma.$transaction((tx) => rotateSigningKeyIn(tx, { revoke, now: this.policy.now(), graceMs: this.policy.graceMs }));
  }

  /**
   * Follows a rotation another transaction made (the keys.rotate_signing tool, run by `shop keys rotate-signing` inside
   * this server): drops what this process read, so it signs and publishes the new key at once, not after its TTL, and
   * logs the rotation as rotate() does.
   */
  followRotation(rotation: { kid: string; previous: string | null; deleted: string[] }): void {
    this.snapshot = undefined;
    this.reading = undefined;
    this.policy.log?.info("signing key rotated", { kid: rotation.kid, previous: rotation.previous ?? undefined, deleted: rotation.deleted });
  }

  private snapshotOf(rows: SigningKey[], now: Date): Snapshot {
    const current = rows.find((row) => row.slot === CURRENT);
    if (!current) throw new Error("no current signing key after making one");
    // A replaced key without retiredAt was retired by hand: published until someone deletes it.
    const kept = rows.filter((row) => row.slot === null && !this.expired(row, now));
    const next = rows.filter((row) => row.slot === NEXT);
    const published = [current, ...next, ...kept].map((row) => row.publicJwk as unknown as PublicJwk);
    return { readAt: now.getTime(), key: { kid: current.kid, privateKey: crypto.createPrivateKey(current.privateKey), publicJwk: published[0]! }, published };
  }
}

/**
 * One on-demand rotation in the caller's transaction (SigningKeys.rotate, the keys.rotate_signing tool): a key already
 * published as next takes over, else a new one; `revoke` deletes every other key. Throws SigningKeysRaced when another
 * process changed the keys between the read and the write: the caller retries in a new transaction.
 */
export async function rotateSigningKeyIn(tx: Db, { revoke, now, graceMs }: { revoke: boolean; now: Date; graceMs: number }): Promise<Rotation> {
  const slotted = await tx.signingKey.findMany({ where: { slot: { not: null } } });
  const current = slotted.find((row) => row.slot === CURRENT);
  const next = slotted.find((row) => row.slot === NEXT);
  if (current) {
    const retired = await tx.signingKey.updateMany({ where: { kid: current.kid, slot: CURRENT }, data: { slot: null, retiredAt: now } });
    if (retired.count === 0) throw new SigningKeysRaced();
  }
  let kid: string;
  if (next && !revoke) {
    const moved = await tx.signingKey.updateMany({ where: { kid: next.kid, slot: NEXT }, data: { slot: CURRENT } });
    if (moved.count === 0) throw new SigningKeysRaced();
    kid = next.kid;
  } else {
    const row = newRow(CURRENT, now);
    if ((await tx.signingKey.createMany({ data: [row], skipDuplicates: true })).count === 0) throw new SigningKeysRaced();
    kid = row.kid;
  }
  let deleted: string[] = [];
  if (revoke) {
    deleted = (await tx.signingKey.findMany({ where: { kid: { not: kid } }, select: { kid: true } })).map((row) => row.kid);
    await tx.signingKey.deleteMany({ where: { kid: { in: deleted } } });
  }
  const publishedUntil = current && !revoke ? new Date(now.getTime() + graceMs) : undefined;
  return { kid, previous: current?.kid, deleted, publishedUntil };
}
