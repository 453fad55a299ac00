// settings.update_branding: change some branding settings; the given fields are merged into the stored section.
import { defineTool, UPDATE } from "../tool.ts";
import { SECTION_SCHEMAS, sectionPatch } from "./schemas.ts";
import { updateSection } from "./settings-document.ts";

export default defineTool({
  name: "settings.update_branding",
  description: "Change the branding; omitted fields stay. Returns the whole section.",
  input: sectionPatch(SECTION_SCHEMAS.branding),
  output: SECTION_SCHEMAS.branding,
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ tagline: "Briller med nordisk lys", primaryColor: "#12355b" }],
  async handler(patch, ctx) {
    return updateSection(ctx, "branding", patch);
  },
});
