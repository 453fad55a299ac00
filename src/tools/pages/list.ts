// pages.list: every content page, drafts included.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { pageRow } from "./schemas.ts";
import { listPages, toPageRow } from "./page-queries.ts";

export default defineTool({
  name: "pages.list",
  description:
    "Content pages (at /info/<slug>), drafts included, by title. Returns [{id, slug, title, status, updatedAt}].",
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
