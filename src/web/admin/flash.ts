// One-shot messages after POST + redirect: a short-lived signed cookie, read and cleared by the next admin page.
import crypto from "node:crypto";
import type { Request, Response } from "express";
import { readCookie } from "../../http/cookies.ts";

const FLASH_COOKIE = "shop_admin_flash";

export interface Flash {
  kind: "ok" | "error";
  text: string;
}

function mac(secret: string, value: string): string {
  return crypto.createHmac("sha256", secret).update(`admin-flash:${value}`).digest("base64url");
}

export function setFlash(res: Response, secret: string, flash: Flash): void {
  const value = Buffer.from(JSON.stringify({ kind: flash.kind, text: flash.text.slice(0, 500) })).toString("base64url");
  res.append("Set-Cookie", `${FLASH_COOKIE}=${value}.${mac(secret, value)}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=60`);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** The pending message (signature checked) and clears it; undefined when there is none. */
export function takeFlash(req: Request, res: Response, secret: string): Flash | undefined {
  const raw = readCookie(req.headers.cookie, FLASH_COOKIE);
  if (!raw) return undefined;
  res.append("Set-Cookie", `${FLASH_COOKIE}=; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=0`);
  const [value, given] = raw.split(".");
  if (!value || !given || !sameText(given, mac(secret, value))) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Partial<Flash>;
    if ((parsed.kind === "ok" || parsed.kind === "error") && typeof parsed.text === "string") return { kind: parsed.kind, text: parsed.text };
  } catch {
    return undefined;
  }
  return undefined;
}
