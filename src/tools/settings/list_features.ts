// settings.list_features: every feature flag and whether it is on.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { featureFlag } from "./schemas.ts";
import { featureView } from "./settings-document.ts";

export default defineTool({
  name: "settings.list_features",
  description:
    "The feature flags (e.g. storefront_chat, newsletter; agent checkouts: settings.update_commerce's agentAccess). " +
    "Returns [{key, enabled, description, updatedAt}].",
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
