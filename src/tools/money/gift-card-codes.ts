// Gift-card codes: secret, typed by people in any case with spaces or hyphens, shown and audited by their last symbols.
import crypto from "node:crypto";
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { GiftCard } from "../../generated/prisma/client.ts";

/** Letters and digits without look-alikes (no I, O, 0, 1): 32 symbols, 5 bits each; 16 of them are 80 random bits. */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const LENGTH = 16;

/** A gift card code as typed: any case, spaces or hyphens anywhere. */
export const giftCardCode = z
  .string()
  .trim()
  .min(LENGTH)
  .max(40)
  .describe("Any case; spaces and hyphens ignored.");

export function newCode(): string {
  const bytes = crypto.randomBytes(LENGTH);
  const symbols = [...bytes].map((byte) => ALPHABET[byte & 31]!);
  return [0, 4, 8, 12].map((at) => symbols.slice(at, at + 4).join("")).join("-");
}

/** The stored form of a typed code, or null when it cannot be one. */
function normalizeCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, "");
  if (plain.length !== LENGTH || [...plain].some((c) => !ALPHABET.includes(c))) return null;
  return [0, 4, 8, 12].map((at) => plain.slice(at, at + 4)).join("-");
}

/** Whether a typed string can be a code (any case, spaces and hyphens ignored). */
export function isCode(typed: string): boolean {
  return normalizeCode(typed) !== null;
}

/** What ledgers and audit entries keep of a code: its last four symbols, never the whole secret. */
export function codeHint(code: string): string {
  return `…${code.slice(-4)}`;
}

/** The card as audit entries keep it (without the code). */
export function cardSnapshot(card: GiftCard) {
  const { code, ...rest } = card;
  return { ...rest, code: codeHint(code) };
}

export async function findCard(db: Db, typed: string): Promise<GiftCard> {
  const code = normalizeCode(typed);
  const card = code ? await db.giftCard.findUnique({ where: { code } }) : null;
  if (!card) throw new NotFound("No gift card with that code.");
  return card;
}
