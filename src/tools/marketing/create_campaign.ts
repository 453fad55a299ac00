// marketing.create_campaign: a new newsletter campaign, always created as a draft.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { campaignFields, campaignOutput } from "./schemas.ts";
import { audienceCounts, campaignView } from "./campaigns.ts";

export default defineTool({
  name: "marketing.create_campaign",
  description: "Create a newsletter campaign as a draft (send: marketing.schedule_campaign). Returns the campaign.",
  input: z.strictObject({
    name: campaignFields.name,
    subject: campaignFields.subject,
    body: campaignFields.body,
    audience: campaignFields.audience.default("all_subscribers"),
  }),
  output: campaignOutput,
  scope: "marketing:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [{ name: "Vinterudsalg 2026", subject: "Vinterudsalg: op til 40 % på solbriller", body: "Kære kunde,\n\nVores vinterudsalg er i gang.", audience: "all_subscribers" }],
  async handler(input, ctx) {
    const row = await ctx.db.campaign.create({ data: { ...input, status: "draft" } });
    await ctx.audit({ subjectType: "campaign", subjectId: row.id, before: null, after: row });
    return campaignView(row, await audienceCounts(ctx.db, ctx.now()));
  },
});
