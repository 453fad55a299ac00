// settings.list_features: every feature flag and whether it is on.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { featureFlag } from "./schemas.ts";
import { featureView } from "./service.ts";

export default defineTool({
  name: "settings.list_features",
  description:
    "List the shop's feature flags (e.g. storefront_chat, admin_assistant, agent_checkout, newsletter) by key, each with enabled, " +
    "a description and when it last changed. Use settings.set_feature to switch one.",
  input: z.strictObject({}),
  output: z.array(featureFlag),
  scope: "features:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const flags = await ctx.db.featureFlag.findMany({ orderBy: { key: "asc" } });
    return flags.map(featureView);
  },
});
