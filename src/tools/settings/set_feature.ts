// settings.set_feature: switch one feature flag on or off.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { featureFlag } from "./schemas.ts";
import { featureView } from "./settings-document.ts";

export default defineTool({
  name: "settings.set_feature",
  description: "Turn a feature flag on or off. Returns the flag as settings.list_features.",
  input: z.strictObject({
    key: z.string().min(1).max(100).describe("The flag key."),
    enabled: z.boolean().describe("On or off."),
  }),
  output: featureFlag,
  scope: "features:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ key: "product_reviews", enabled: true }],
  async handler({ key, enabled }, ctx) {
    const before = await ctx.db.featureFlag.findUnique({ where: { key } });
    if (!before) throw new NotFound(`No feature flag "${key}"; settings.list_features lists the keys.`);
    const after = await ctx.db.featureFlag.update({ where: { key }, data: { enabled } });
    await ctx.audit({ subjectType: "featureFlag", subjectId: key, before, after });
    ctx.collaborators.flags.changed(ctx);
    return featureView(after);
  },
});
