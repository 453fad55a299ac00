// settings.get_policies: the public policy texts, for shoppers and agents.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { SECTION_SCHEMAS } from "./schemas.ts";
import { getSection } from "./settings-document.ts";

export default defineTool({
  name: "settings.get_policies",
  description:
    "The public policies as plain text, to answer shoppers about returns, delivery, data and terms. Returns " +
    "{returns, shipping, privacy, terms}.",
  input: z.strictObject({}),
  output: SECTION_SCHEMAS.policies,
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return getSection(ctx.db, "policies");
  },
});
