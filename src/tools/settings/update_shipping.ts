// settings.update_shipping: change some shipping settings; the given fields are merged into the stored section.
import { defineTool, UPDATE } from "../tool.ts";
import { SECTION_SCHEMAS, sectionPatch } from "./schemas.ts";
import { updateSection } from "./service.ts";

export default defineTool({
  name: "settings.update_shipping",
  description:
    "Change shipping settings: flatRateDkk (shipping price in øre), freeShippingThresholdDkk (subtotal in øre from which " +
    "shipping is free) and carriers (the whole list, each with name, minDays and maxDays). Give only the fields to change. Returns the full shipping section.",
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
