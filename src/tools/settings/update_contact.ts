// settings.update_contact: change some contact settings; the given fields are merged into the stored section.
import { defineTool, UPDATE } from "../tool.ts";
import { SECTION_SCHEMAS, sectionPatch } from "./schemas.ts";
import { updateSection } from "./settings-document.ts";

export default defineTool({
  name: "settings.update_contact",
  description: "Change the contact details; omitted fields stay (bankAccount is replaced whole). Returns the whole section.",
  input: sectionPatch(SECTION_SCHEMAS.contact),
  output: SECTION_SCHEMAS.contact,
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ phone: "+45 70 20 30 41" }],
  async handler(patch, ctx) {
    return updateSection(ctx, "contact", patch);
  },
});
