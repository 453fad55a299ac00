// marketing.schedule_campaign: schedule a draft for a future moment, move a scheduled campaign, or unschedule it back to draft.
import { z } from "zod";
import { Refused } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { campaignId, campaignOutput } from "./schemas.ts";
import { audienceCounts, campaignView, lockCampaign } from "./campaigns.ts";

export default defineTool({
  name: "marketing.schedule_campaign",
  description:
    "Schedule a draft or move a scheduled campaign (sendAt null: back to draft); it goes to its audience's consenting " +
    "subscribers. Returns the campaign.",
  errors: [
    { status: 422, code: "send_at_in_past" },
    { status: 422, code: "campaign_already_sent" },
  ],
  input: z.strictObject({
    id: campaignId,
    sendAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .describe("In the future; null unschedules."),
  }),
  output: campaignOutput,
  scope: "marketing:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ id: "demo-campaign", sendAt: "2030-01-06T08:00:00Z" }, { id: "demo-campaign", sendAt: null }],
  async handler({ id, sendAt }, ctx) {
    const before = await lockCampaign(ctx.db, id);
    if (before.status === "sent") throw new Refused("campaign_already_sent", `Campaign "${id}" was sent and can no longer be scheduled or unscheduled.`);
    const when = sendAt === null ? null : new Date(sendAt);
    if (when && when.getTime() <= ctx.now().getTime()) {
      throw new Refused("send_at_in_past", `sendAt ${when.toISOString()} is not in the future (now is ${ctx.now().toISOString()}).`);
    }
    const after = await ctx.db.campaign.update({ where: { id }, data: { sendAt: when, status: when ? "scheduled" : "draft" } });
    await ctx.audit({ subjectType: "campaign", subjectId: id, before, after });
    return campaignView(after, await audienceCounts(ctx.db, ctx.now()));
  },
});
