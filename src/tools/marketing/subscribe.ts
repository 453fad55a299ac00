// marketing.subscribe: sign a shopper up for the newsletter with explicit consent; repeating it changes nothing.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import type { Subscriber } from "../../generated/prisma/client.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool } from "../tool.ts";
import { SOURCES } from "./schemas.ts";

const view = (row: Subscriber, alreadySubscribed: boolean) => ({
  id: row.id,
  email: row.email,
  consentAt: row.consentAt.toISOString(),
  source: row.source,
  alreadySubscribed,
});

export default defineTool({
  name: "marketing.subscribe",
  description:
    "Subscribe a shopper's e-mail to the newsletter, only after their explicit yes. Returns {id, email, consentAt, " +
    "source, alreadySubscribed}.",
  errors: [{ status: 422, code: "feature_disabled", when: "newsletter sign-up is off" }],
  input: z.strictObject({
    email: z.email().max(254).describe("The shopper's e-mail."),
    consent: z.literal(true).describe("The shopper's explicit yes."),
    source: z.enum(SOURCES).default("storefront").describe("Where they consented."),
  }),
  output: z.strictObject({
    id: z.string(),
    email: z.string(),
    consentAt: isoDateTime.describe("When consent was given (UTC); the original time when already subscribed."),
    source: z.string(),
    alreadySubscribed: z.boolean(),
  }),
  scope: "cart:write",
  anonymous: false,
  audited: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  examples: [{ email: "kunde@example.dk", consent: true, source: "chat" }],
  async handler(input, ctx) {
    const flag = await ctx.db.featureFlag.findUnique({ where: { key: "newsletter" } });
    if (flag && !flag.enabled) throw new Refused("feature_disabled", "Newsletter sign-up is turned off in this shop (feature flag \"newsletter\").");
    const email = input.email.toLowerCase();
    const now = ctx.now();
    const customer = await ctx.db.customer.findFirst({ where: { email: { equals: email, mode: "insensitive" } }, select: { id: true } });
    const existing = await ctx.db.subscriber.findUnique({ where: { email } });
    if (existing && !existing.unsubscribedAt) {
      // A repeated consent is recorded against the subscriber (before = after), not as a generic tool entry.
      await ctx.audit({ subjectType: "subscriber", subjectId: existing.id, before: existing, after: existing });
      return view(existing, true);
    }
    const data = { consentAt: now, source: input.source, customerId: customer?.id ?? existing?.customerId ?? null };
    if (existing) {
      const after = await ctx.db.subscriber.update({ where: { id: existing.id }, data: { ...data, unsubscribedAt: null } });
      await ctx.audit({ subjectType: "subscriber", subjectId: after.id, before: existing, after });
      return view(after, false);
    }
    // ON CONFLICT DO NOTHING: a concurrent subscription of the same address must not abort the transaction.
    const { count } = await ctx.db.subscriber.createMany({ data: [{ email, ...data }], skipDuplicates: true });
    const row = await ctx.db.subscriber.findUniqueOrThrow({ where: { email } });
    await ctx.audit({ subjectType: "subscriber", subjectId: row.id, before: count ? null : row, after: row });
    return view(row, count === 0);
  },
});
