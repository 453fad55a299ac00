// returns.policy: whether a product may be withdrawn from, for shoppers before they buy and the admin product form.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { slugInput } from "../products/schemas.ts";
import { defineTool, READ } from "../tool.ts";
import { getReturnDays } from "../settings/sale-terms.ts";
import { COMPLAINT_MONTHS } from "./deadlines.ts";

export default defineTool({
  name: "returns.policy",
  description:
    "Whether a product may be returned under the right of withdrawal (not when made to order, e.g. prescription " +
    "lenses; complaints always). Returns {slug, returnable, withdrawalDays, complaintMonths}.",
  input: z.strictObject({ slug: slugInput }),
  output: z.strictObject({ slug: z.string(), returnable: z.boolean(), withdrawalDays: z.number().int(), complaintMonths: z.number().int() }),
  scope: "catalog:read",
  anonymous: true,
  audited: false,
  annotations: READ,
  examples: [{ slug: "oakley-aviator-coast-1" }],
  async handler({ slug }, ctx) {
    const product = await ctx.db.product.findFirst({ where: { slug, deletedAt: null }, select: { slug: true, returnable: true } });
    if (!product) throw new NotFound(`No product with slug "${slug}".`);
    return { slug: product.slug, returnable: product.returnable, withdrawalDays: await getReturnDays(ctx.db), complaintMonths: COMPLAINT_MONTHS };
  },
});
