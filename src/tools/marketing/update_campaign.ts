// marketing.update_campaign: edit the texts or audience of a draft campaign.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { campaignFields, campaignId, campaignOutput } from "./schemas.ts";
import { audienceCounts, campaignView, lockCampaign } from "./service.ts";

const patch = z
  .strictObject({
    name: campaignFields.name.optional(),
    subject: campaignFields.subject.optional(),
    body: campaignFields.body.optional(),
    audience: campaignFields.audience.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: "The patch must change at least one field." })
  .describe("Fields to change; omitted ones stay.");

export default defineTool({
  name: "marketing.update_campaign",
  description: "Change a draft campaign (unschedule a scheduled one first). 422 campaign_not_draft. Returns the campaign.",
  input: z.strictObject({ id: campaignId, patch }),
  output: campaignOutput,
  scope: "marketing:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ id: "demo-campaign", patch: { subject: "Sidste chance: vinterudsalg" } }],
  async handler({ id, patch }, ctx) {
    const before = await lockCampaign(ctx.db, id);
    if (before.status !== "draft") {
      throw new Refused("campaign_not_draft", `Campaign "${id}" is ${before.status}; only draft campaigns can be edited.`);
    }
    const after = await ctx.db.campaign.update({ where: { id }, data: patch });
    await ctx.audit({ subjectType: "campaign", subjectId: id, before, after });
    return campaignView(after, await audienceCounts(ctx.db, ctx.now()));
  },
});
