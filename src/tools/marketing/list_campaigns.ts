// marketing.list_campaigns: campaigns newest first, with status, schedule, recipients and current audience sizes.
import { z } from "zod";
import { limit } from "../fields.ts";
import { defineTool, READ } from "../tool.ts";
import { CAMPAIGN_STATUSES, campaignSummary } from "./schemas.ts";
import { audienceCounts, campaignView } from "./campaigns.ts";

export default defineTool({
  name: "marketing.list_campaigns",
  description:
    "Newsletter campaigns, newest first, without body. Returns [{id, name, subject, audience, status, sendAt, sentAt, " +
    "recipientCount, audienceCount, …}].",
  input: z.strictObject({
    status: z.enum(CAMPAIGN_STATUSES).optional().describe("Campaign status."),
    limit: limit(100, 20),
  }),
  output: z.array(campaignSummary),
  scope: "marketing:write",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { status: "scheduled", limit: 10 }],
  async handler({ status, limit }, ctx) {
    const rows = await ctx.db.campaign.findMany({
      where: status ? { status } : {},
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    if (!rows.length) return [];
    const counts = await audienceCounts(ctx.db, ctx.now());
    return rows.map((row) => {
      const { body: _body, ...summary } = campaignView(row, counts);
      return summary;
    });
  },
});
