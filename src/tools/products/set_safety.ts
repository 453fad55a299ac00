// products.set_safety: the GPSR product safety information of one product (maker, EU responsible person, warnings).
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { party, safetyView } from "./safety.ts";
import { productSnapshot } from "./product-rows.ts";

export default defineTool({
  name: "products.set_safety",
  description:
    "Set a product's safety information (EU GPSR): manufacturer, the EU responsible person when the maker is outside " +
    "the EU, warnings in Danish. Replaces what was there. Returns it as products.get_safety.",
  errors: [{ status: 404, when: "unknown or deleted product" }],
  input: z.strictObject({
    productId: z.string().min(1).max(200).describe("products.get id."),
    manufacturer: party.describe("The maker."),
    euResponsible: party.optional().describe("EU responsible person, if the maker is outside the EU."),
    warnings: z.string().trim().max(2000).optional().describe("Safety warnings in Danish."),
  }),
  output: safetyView,
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ productId: "p000007342", manufacturer: { name: "Nordlys Eyewear ApS", address: "Strøget 12, 1160 København K, Danmark", contact: "produktsikkerhed@nordlys-optik.dk" }, warnings: "Ikke egnet til at se direkte på solen." }],
  async handler(input, ctx) {
    const found = await ctx.db.product.findFirst({ where: { id: input.productId, deletedAt: null }, select: { id: true, slug: true } });
    if (!found) throw new NotFound(`No product with id "${input.productId}".`);
    const before = await productSnapshot(ctx.db, found.id);
    const safety = { manufacturer: input.manufacturer, euResponsible: input.euResponsible ?? null, warnings: input.warnings ?? "" };
    await ctx.db.product.update({ where: { id: found.id }, data: { safety, updatedAt: ctx.now() } });
    await ctx.audit({ subjectType: "product", subjectId: found.id, before, after: await productSnapshot(ctx.db, found.id) });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [found.id] });
    return { productId: found.id, slug: found.slug, ...safety };
  },
});
