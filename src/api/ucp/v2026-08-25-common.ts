// UCP 2026-08-25 shared types (the spec's common/types: message, total, link, policy, price, description, media, the
// response envelope and the error response): our zod reading of them, used by this version's catalog and cart wire
// files. Nothing here decides a business rule.
import { z } from "zod";

export const VERSION = "2026-08-25";

/** A reverse-domain name (capabilities, policy types, action names). */
export const name = z.string().regex(/^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9_-]*)+$/);
export const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const signedAmount = z.number().int();
export const severity = z.enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"]);

export const message = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("error"), code: z.string(), path: z.string().optional(), content: z.string(), severity }),
  z.strictObject({ type: z.literal("warning"), code: z.string(), path: z.string().optional(), content: z.string() }),
  z.strictObject({ type: z.literal("info"), code: z.string().optional(), path: z.string().optional(), content: z.string() }),
]);
export const total = z.strictObject({ type: z.string(), display_text: z.string().optional(), amount: signedAmount });
/** Exactly one subtotal and one total, and the parts add up to the total. */
export const totals = z
  .array(total)
  .refine((list) => list.filter((entry) => entry.type === "subtotal").length === 1 && list.filter((entry) => entry.type === "total").length === 1, "exactly one subtotal and one total")
  .refine((list) => list.reduce((sum, entry) => (entry.type === "total" ? sum : sum + entry.amount), 0) === list.find((entry) => entry.type === "total")?.amount, "the parts add up to the total");
export const link = z.strictObject({ type: z.string(), url: z.url(), title: z.string().optional() });
export const description = z.strictObject({ plain: z.string().optional(), html: z.string().optional(), markdown: z.string().optional() }).refine((value) => Object.keys(value).length > 0, "at least one format");
export const policy = z.strictObject({ type: name, description, url: z.url().optional(), applies_to: z.array(z.string()).optional() });
export const price = z.strictObject({ amount, currency: z.string().regex(/^[A-Z]{3}$/) });
export const priceRange = z.strictObject({ min: price, max: price });
export const media = z.strictObject({ type: z.string(), url: z.url(), alt_text: z.string().optional(), width: z.number().int().min(1).optional(), height: z.number().int().min(1).optional() });

/** The response envelope naming `capability` (with any others the answer is about) at this version. */
export const envelope = (capability: string, status: "success" | "error" = "success") =>
  z
    .strictObject({
      version: z.literal(VERSION),
      status: z.literal(status),
      capabilities: z.record(name, z.array(z.strictObject({ version: z.literal(VERSION) })).min(1)).refine((value) => capability in value, `the ${capability} capability`),
    })
    .describe(`The ${VERSION} envelope.`);

/** The error response of an operation of `capability`: no resource, at least one message. */
export const errorResponse = (capability: string) =>
  z.strictObject({ ucp: envelope(capability, "error"), messages: z.array(message).min(1), continue_url: z.url().optional() });

/** The envelope of an answer about these capabilities. */
export function envelopeOf(capabilities: readonly string[], status: "success" | "error" = "success") {
  return { version: VERSION, status, capabilities: Object.fromEntries(capabilities.map((entry) => [entry, [{ version: VERSION }]])) };
}
