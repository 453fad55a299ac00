// settings.get: the whole settings document for staff.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { SECTION_SCHEMAS } from "./schemas.ts";
import { getSettings } from "./service.ts";

export default defineTool({
  name: "settings.get",
  description:
    "Get all shop settings: branding (name, tagline, logo, colours), shipping (flat rate and free-shipping threshold in øre, carriers " +
    "with delivery days), contact (e-mail, phone, address, CVR, bank account for transfers) and policies (returns, shipping, privacy, terms texts).",
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
