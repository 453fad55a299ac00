// marketing.list_campaigns: campaigns newest first, with status, schedule, recipients and current audience sizes.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { CAMPAIGN_STATUSES, campaignSummary } from "./schemas.ts";
import { audienceCounts, campaignView } from "./service.ts";

export default defineTool({
  name: "marketing.list_campaigns",
  description:
    "List newsletter campaigns, newest first, optionally only those with one status (draft, scheduled or sent). Each has its audience, " +
    "sendAt, sentAt, recipientCount (how many it was sent to) and audienceCount (how many consenting subscribers its audience has now). " +
    "The body is left out; marketing.update_campaign and marketing.create_campaign return it.",
  input: z.strictObject({
    status: z.enum(CAMPAIGN_STATUSES).optional().describe("Only campaigns with this status."),
    limit: z.number().int().min(1).max(100).default(20).describe("How many, 1..100 (default 20)."),
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
