// settings.update_shipping: change some shipping settings; the given fields are merged into the stored section.
import { defineTool, UPDATE } from "../tool.ts";
import { SECTION_SCHEMAS, sectionPatch } from "./schemas.ts";
import { updateSection } from "./settings-document.ts";

export default defineTool({
  name: "settings.update_shipping",
  description: "Change the shipping settings; omitted fields stay. Returns the whole section.",
  input: sectionPatch(SECTION_SCHEMAS.shipping),
  output: SECTION_SCHEMAS.shipping,
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ flatRateDkk: 3900 }, { carriers: [{ name: "PostNord", minDays: 1, maxDays: 3 }] }],
  async handler(patch, ctx) {
    return updateSection(ctx, "shipping", patch);
  },
});
