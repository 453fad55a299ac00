// Plain JSON requests to the protocol doors (UCP, ACP) as an agent sends them, and their answers read with our zod
// reading of the version's schema.
import type { z } from "zod";

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

/** Sends `body` as JSON (a string as it is) and reads the JSON answer. */
export async function sendJson(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Record<string, unknown>, text };
}

/** The answer's body under `schema`; a violation fails the test with the issues and the answer. */
export function valid<T extends z.ZodType>(schema: T, reply: Reply): z.infer<T> {
  const parsed = schema.safeParse(reply.body);
  if (!parsed.success) throw new Error(`${reply.status} answer violates the schema: ${JSON.stringify(parsed.error.issues)} in ${reply.text}`);
  return parsed.data;
}
