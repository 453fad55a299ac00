// marketing.list_subscribers: newsletter subscribers with consent time and source, newest first, paginated.
import { z } from "zod";
import { iso } from "../../core/json.ts";
import { isoDateTime } from "../products/schemas.ts";
import { defineTool, READ } from "../tool.ts";

export default defineTool({
  name: "marketing.list_subscribers",
  description:
    "List newsletter subscribers, newest first: e-mail, when and where they gave consent (consentAt, source), their customer id when " +
    "the e-mail belongs to a customer, and unsubscribedAt for those who left. By default only active subscribers; page with limit/offset.",
  input: z.strictObject({
    status: z.enum(["active", "unsubscribed", "all"]).default("active").describe("\"active\" (default), \"unsubscribed\" or \"all\"."),
    limit: z.number().int().min(1).max(100).default(50).describe("Page size, 1..100 (default 50)."),
    offset: z.number().int().min(0).max(100_000).default(0).describe("Subscribers to skip, 0..100000 (default 0)."),
  }),
  output: z.array(
    z.strictObject({
      id: z.string(),
      email: z.string().describe("Lowercase e-mail address."),
      consentAt: isoDateTime.describe("When the subscriber explicitly consented (UTC)."),
      source: z.string().describe("Where they subscribed: storefront, chat, checkout, import or admin."),
      customerId: z.string().nullable(),
      createdAt: isoDateTime,
      unsubscribedAt: isoDateTime.nullable(),
    }),
  ),
  scope: "marketing:write",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "all", limit: 20, offset: 20 }],
  async handler({ status, limit, offset }, ctx) {
    const where = status === "active" ? { unsubscribedAt: null } : status === "unsubscribed" ? { unsubscribedAt: { not: null } } : {};
    const rows = await ctx.db.subscriber.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset });
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      consentAt: row.consentAt.toISOString(),
      source: row.source,
      customerId: row.customerId,
      createdAt: row.createdAt.toISOString(),
      unsubscribedAt: iso(row.unsubscribedAt),
    }));
  },
});
