// Password hashing for staff users: scrypt with a random salt on libuv's thread pool (never blocking the event loop),
// compared in constant time.
import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH);
  return `scrypt$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length);
  return crypto.timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/**
 * Spends the same work as verifyPassword against a throw-away hash and answers false: used when the e-mail matches
 * no staff user, so the response time does not tell which part of a sign-in was wrong.
 */
export async function verifyNothing(password: string): Promise<false> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  await verifyPassword(password, await decoy);
  return false;
}
