// pages.delete: remove a content page for good (audit.revert can bring it back from the audit entry).
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { DESTRUCTIVE, defineTool } from "../tool.ts";
import { pageSlug } from "./schemas.ts";
import { findPage } from "./page-queries.ts";

export default defineTool({
  name: "pages.delete",
  description: "Delete a content page and its layout for good (hide it: status draft). Returns {ok, slug}.",
  input: z.strictObject({
    slug: pageSlug,
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  scope: "pages:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ slug: "vinterudsalg", confirm: true }],
  async handler({ slug }, ctx) {
    const before = await findPage(ctx.db, slug);
    await ctx.db.page.delete({ where: { id: before.id } });
    await ctx.audit({ subjectType: "page", subjectId: before.id, before, after: null });
    return { ok: true as const, slug };
  },
});
