// settings.update_policies: change some policies settings; the given fields are merged into the stored section.
import { defineTool, UPDATE } from "../tool.ts";
import { SECTION_SCHEMAS, sectionPatch } from "./schemas.ts";
import { updateSection } from "./settings-document.ts";

export default defineTool({
  name: "settings.update_policies",
  description: "Change the policy texts shown to shoppers; omitted ones stay. Returns all four.",
  input: sectionPatch(SECTION_SCHEMAS.policies),
  output: SECTION_SCHEMAS.policies,
  scope: "settings:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ returns: "Du har 14 dages returret på alle varer." }],
  async handler(patch, ctx) {
    return updateSection(ctx, "policies", patch);
  },
});
