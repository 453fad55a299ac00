// products.create: a new product with its images, in a category given by id or slug.
import { z } from "zod";
import { Conflict } from "../../core/errors.ts";
import { defineTool, WRITE } from "../tool.ts";
import { categoryGiven, newProductFields, productRef } from "./schemas.ts";
import { productSnapshot, resolveCategory } from "./product-rows.ts";

const input = z.strictObject(newProductFields).refine(...categoryGiven);

export default defineTool({
  name: "products.create",
  description: "Create a product in a category (categorySlug or categoryId). Returns {id, slug}.",
  errors: [
    { status: 400, when: "categoryId and categorySlug name different categories" },
    { status: 404, when: "unknown category" },
    { status: 409, when: "the slug is taken (deleted products too)" },
  ],
  input,
  output: productRef,
  scope: "products:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [
    {
      name: "Nordlys Panto Demo",
      slug: "nordlys-panto-demo",
      description: "Let panto-stel i acetat med grå glas.",
      priceDkk: 89900,
      stock: 12,
      categorySlug: "solbriller",
      brand: "Nordlys",
    },
  ],
  async handler(input, ctx) {
    const { categoryId, categorySlug, images, priceDkk, stock, ...fields } = input;
    const category = await resolveCategory(ctx.db, { categoryId, categorySlug });
    const taken = await ctx.db.product.findUnique({ where: { slug: input.slug }, select: { deletedAt: true } });
    if (taken) throw new Conflict(`The slug "${input.slug}" is already used by ${taken.deletedAt ? "a deleted" : "another"} product.`);
    const product = await ctx.db.product.create({
      data: { ...fields, priceDkk: BigInt(priceDkk), stock: BigInt(stock), categoryId: category.id },
    });
    if (images.length) {
      await ctx.db.productImage.createMany({ data: images.map((url, position) => ({ productId: product.id, url, position })) });
    }
    await ctx.audit({ subjectType: "product", subjectId: product.id, before: null, after: await productSnapshot(ctx.db, product.id) });
    await ctx.collaborators.catalog.changed(ctx, { productIds: [product.id] });
    return { id: product.id, slug: product.slug };
  },
});
