// settings.get: the whole settings document for staff.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { SECTION_SCHEMAS } from "./schemas.ts";
import { getSettings } from "./settings-document.ts";

export default defineTool({
  name: "settings.get",
  description: "All shop settings. Returns {branding, shipping, contact, policies}, each whole.",
  input: z.strictObject({}),
  output: z.strictObject(SECTION_SCHEMAS),
  scope: "settings:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return getSettings(ctx.db);
  },
});
