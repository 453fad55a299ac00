// products.delete: soft delete (sets deletedAt); the product disappears from every catalogue read.
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { slugInput } from "./schemas.ts";
import { lockVisibleProduct, productSnapshot } from "./product-rows.ts";
import { emitProductUpdated } from "./webhook-events.ts";

export default defineTool({
  name: "products.delete",
  description: "Soft-delete a product: hidden everywhere at once; audit.revert restores it. Returns {ok, slug}.",
  errors: [{ status: 404, when: "unknown or already deleted" }],
  input: z.strictObject({
    slug: slugInput,
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ slug: "etui-sommer-28", confirm: true }],
  async handler({ slug }, ctx) {
    const id = await lockVisibleProduct(ctx.db, slug);
    const before = await productSnapshot(ctx.db, id);
    await ctx.db.product.update({ where: { id }, data: { deletedAt: ctx.now() } });
    const after = await productSnapshot(ctx.db, id);
    await ctx.audit({ subjectType: "product", subjectId: id, before, after });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [id] });
    await emitProductUpdated(ctx, after);
    return { ok: true as const, slug };
  },
});
