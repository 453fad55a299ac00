// products.get_safety: a visible product's GPSR safety information, for shoppers and agents (the product page shows it).
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { readSafety, safetyView } from "./safety.ts";
import { allowDrafts, draftsInput } from "./product-rows.ts";

export default defineTool({
  name: "products.get_safety",
  description:
    "A product's safety information (EU GPSR): manufacturer, EU responsible person, warnings. Returns it, or null " +
    "when the shop has given none.",
  errors: [{ status: 404, when: "unknown, deleted or a draft (without drafts: true)" }],
  input: z.strictObject({ productId: z.string().min(1).max(200).describe("products.get id."), drafts: draftsInput }),
  output: safetyView.nullable(),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  examples: [{ productId: "p000007342" }],
  async handler({ productId, drafts }, ctx) {
    const draft = allowDrafts(ctx, drafts);
    const product = await ctx.db.product.findFirst({ where: { id: productId, deletedAt: null, draft }, select: { id: true, slug: true, safety: true } });
    if (!product) throw new NotFound(`No product with id "${productId}".`);
    const safety = readSafety(product.safety);
    return safety && { productId: product.id, slug: product.slug, ...safety };
  },
});
