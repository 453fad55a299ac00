// API keys: random secrets shown once, stored only as a SHA-256 hash, with explicit scopes; revocable. The one place
// that makes, hashes and looks up key secrets; the keys.* tools add who may manage which key.
import crypto from "node:crypto";
import type { Db } from "../../core/db.ts";
import { NotFound } from "../../core/errors.ts";
import type { ApiKey } from "../../generated/prisma/client.ts";
import type { Grant } from "../scopes.ts";
import type { KeyView } from "./schemas.ts";

export interface VerifiedKey {
  id: string;
  scopes: string[];
  /** The toolsets (areas) the key is limited to; empty: every one. */
  toolsets: string[];
}

const KEY_PATTERN = /^shop_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{20,}$/;

export function hashKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}

/** A new secret: `shop_<8-character prefix>_<32 random characters>`. */
export function newKeySecret(): string {
  const prefix = crypto.randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8);
  return `shop_${prefix}_${crypto.randomBytes(24).toString("base64url")}`;
}

/** Creates a key (with a secret made here unless one from newKeySecret is given); the plain secret is never stored. */
export async function createKey(
  db: Db,
  name: string,
  scopes: readonly Grant[],
  secret = newKeySecret(),
  toolsets: readonly string[] = [],
): Promise<{ secret: string; key: KeyView }> {
  const prefix = secret.split("_")[1] ?? "";
  const data = { name: name.trim(), prefix, hash: hashKey(secret), scopes: [...new Set(scopes)], toolsets: [...new Set(toolsets)].sort() };
  const row = await db.apiKey.create({ data });
  return { secret, key: describeKey(row) };
}

/** Every key, oldest first; only active or only revoked ones when `state` says so. */
export async function listKeys(db: Db, state?: "active" | "revoked"): Promise<KeyView[]> {
  const revokedAt = state === "active" ? null : state === "revoked" ? { not: null } : undefined;
  const rows = await db.apiKey.findMany({ where: revokedAt === undefined ? {} : { revokedAt }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(describeKey);
}

export async function findKey(db: Db, id: string): Promise<ApiKey> {
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row) throw new NotFound(`There is no API key with id "${id}"; keys.list lists them.`);
  return row;
}

/** The key's id and scopes when it exists and is not revoked. */
export async function findActiveKey(db: Db, key: string): Promise<VerifiedKey | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const row = await db.apiKey.findUnique({ where: { hash: hashKey(key) }, select: { id: true, scopes: true, toolsets: true, revokedAt: true } });
  if (!row || row.revokedAt) return null;
  return { id: row.id, scopes: row.scopes, toolsets: row.toolsets };
}

export async function touchKey(db: Db, id: string, now = new Date()): Promise<void> {
  await db.apiKey.update({ where: { id }, data: { lastUsedAt: now } });
}

/** The key as tools show it: never its hash, the secret only as its first characters. */
export function describeKey(row: ApiKey): KeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: `shop_${row.prefix}_…`,
    scopes: row.scopes,
    ...(row.toolsets.length ? { toolsets: row.toolsets } : {}),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The audit snapshot of a key: what the key is, without its ever-changing last use. */
export function keySnapshot(view: KeyView) {
  const { lastUsedAt: _lastUsedAt, ...snapshot } = view;
  return snapshot;
}

/** The signing secret an agent platform's key signs its ACP requests with (keys.set_acp), or null when it signs none. */
export async function acpSigningSecret(db: Db, keyId: string): Promise<string | null> {
  const row = await db.apiKey.findUnique({ where: { id: keyId }, select: { acpSigningSecret: true } });
  return row?.acpSigningSecret ?? null;
}
