// marketing.update_campaign: edit the texts or audience of a draft campaign.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { undescribed } from "../fields.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { campaignFields, campaignId, campaignOutput } from "./schemas.ts";
import { audienceCounts, campaignView, lockCampaign } from "./campaigns.ts";

/** A field as marketing.create_campaign describes it (the patch says so once). */
const same = <T extends z.ZodType>(schema: T) => undescribed(schema).optional();

const patch = z
  .strictObject({
    name: same(campaignFields.name),
    subject: same(campaignFields.subject),
    body: same(campaignFields.body),
    audience: same(campaignFields.audience),
  })
  .refine((value) => Object.keys(value).length > 0, { message: "The patch must change at least one field." })
  .describe("Fields to change (as marketing.create_campaign); omitted ones stay.");

export default defineTool({
  name: "marketing.update_campaign",
  description: "Change a draft campaign (unschedule a scheduled one first). Returns the campaign.",
  errors: [{ status: 422, code: "campaign_not_draft" }],
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
