// pages.list: every content page, drafts included.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { pageRow } from "./schemas.ts";
import { listPages, toPageRow } from "./service.ts";

export default defineTool({
  name: "pages.list",
  description:
    "List all content pages (served at /info/<slug>), drafts included, sorted by title: id, slug, title, status and updatedAt. " +
    "Use pages.get for a page's body.",
  input: z.strictObject({}),
  output: z.array(pageRow),
  scope: "pages:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return (await listPages(ctx.db)).map(toPageRow);
  },
});
