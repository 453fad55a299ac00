// The marketing.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import createCampaign from "./create_campaign.ts";
import listCampaigns from "./list_campaigns.ts";
import listSubscribers from "./list_subscribers.ts";
import scheduleCampaign from "./schedule_campaign.ts";
import subscribe from "./subscribe.ts";
import updateCampaign from "./update_campaign.ts";

const tools: AnyTool[] = [createCampaign, listCampaigns, updateCampaign, scheduleCampaign, listSubscribers, subscribe];

export default tools;
