// services.delete: remove an offering for good (audit.revert can bring it back from the audit entry).
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { DESTRUCTIVE, defineTool } from "../tool.ts";
import { serviceSlug } from "./schemas.ts";
import { findService } from "./offerings.ts";

export default defineTool({
  name: "services.delete",
  description: "Delete a service offering and its page for good (hide it: status draft). Returns {ok, slug}.",
  input: z.strictObject({
    slug: serviceSlug,
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  scope: "pages:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ slug: "brilleservice", confirm: true }],
  async handler({ slug }, ctx) {
    const before = await findService(ctx.db, slug);
    await ctx.db.serviceOffering.delete({ where: { id: before.id } });
    await ctx.audit({ subjectType: "serviceOffering", subjectId: before.id, before, after: null });
    return { ok: true as const, slug };
  },
});
