// marketing.list_subscribers: newsletter subscribers with consent time and source, newest first, paginated.
import { z } from "zod";
import { limit, offset } from "../fields.ts";
import { iso } from "../../core/json.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";

export default defineTool({
  name: "marketing.list_subscribers",
  description:
    "Newsletter subscribers, newest first. Returns [{id, email, consentAt, source, customerId, unsubscribedAt, …}].",
  input: z.strictObject({
    status: z.enum(["active", "unsubscribed", "all"]).default("active").describe("Which subscribers."),
    limit: limit(100, 50),
    offset: offset(100_000),
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
