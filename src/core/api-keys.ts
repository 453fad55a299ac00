// API keys: random secrets shown once, stored only as a SHA-256 hash, with explicit scopes; revocable.
import crypto from "node:crypto";
import type { Db } from "./db.ts";
import { Invalid, NotFound } from "./errors.ts";
import { isScope, WILDCARD } from "../tools/scopes.ts";

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface VerifiedKey {
  id: string;
  scopes: string[];
}

const KEY_PATTERN = /^shop_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{20,}$/;

export function hashKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}

export function validateScopes(scopes: string[]): string[] {
  const unique = [...new Set(scopes.map((scope) => scope.trim()).filter(Boolean))];
  if (unique.length === 0) throw new Invalid("A key needs at least one scope.");
  const unknown = unique.filter((scope) => scope !== WILDCARD && !isScope(scope));
  if (unknown.length) throw new Invalid(`Unknown scope(s): ${unknown.join(", ")}.`);
  return unique;
}

/** Creates a key; the plain secret is returned here and never stored. */
export async function createApiKey(db: Db, name: string, scopes: string[]): Promise<{ key: string; info: ApiKeyInfo }> {
  if (!name.trim()) throw new Invalid("A key needs a name.");
  const prefix = crypto.randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8);
  const key = `shop_${prefix}_${crypto.randomBytes(24).toString("base64url")}`;
  const row = await db.apiKey.create({
    data: { name: name.trim(), prefix, hash: hashKey(key), scopes: validateScopes(scopes) },
  });
  return { key, info: describeKey(row) };
}

export async function listApiKeys(db: Db): Promise<ApiKeyInfo[]> {
  const rows = await db.apiKey.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map(describeKey);
}

export async function revokeApiKey(db: Db, id: string, now = new Date()): Promise<ApiKeyInfo> {
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row) throw new NotFound(`There is no API key with id "${id}".`);
  const updated = row.revokedAt ? row : await db.apiKey.update({ where: { id }, data: { revokedAt: now } });
  return describeKey(updated);
}

/** The key's id and scopes when it exists and is not revoked. */
export async function findActiveKey(db: Db, key: string): Promise<VerifiedKey | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const row = await db.apiKey.findUnique({ where: { hash: hashKey(key) }, select: { id: true, scopes: true, revokedAt: true } });
  if (!row || row.revokedAt) return null;
  return { id: row.id, scopes: row.scopes };
}

export async function touchApiKey(db: Db, id: string, now = new Date()): Promise<void> {
  await db.apiKey.update({ where: { id }, data: { lastUsedAt: now } });
}

function describeKey(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: `shop_${row.prefix}_…`,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
