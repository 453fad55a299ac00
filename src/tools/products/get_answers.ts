// products.get_answers: the answer-engine content of one product (summary, FAQ, use cases, facts, attributes), from the read model.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { productFields, slugInput } from "./schemas.ts";
import { allowDrafts, catalogProduct, draftsInput } from "./product-rows.ts";

export default defineTool({
  name: "products.get_answers",
  description:
    "A product's answer-engine content, for answering shoppers (empty: not written). Returns {slug, name, " +
    "answerSummary, faq, useCases, comparisonFacts, attributes, giftCard}.",
  errors: [{ status: 404, when: "unknown, deleted or a draft" }],
  input: z.strictObject({ slug: slugInput, drafts: draftsInput }),
  output: z.strictObject({
    slug: z.string(),
    name: z.string(),
    answerSummary: z.string().nullable(),
    faq: productFields.faq,
    useCases: productFields.useCases,
    comparisonFacts: productFields.comparisonFacts,
    attributes: productFields.attributes,
    giftCard: z.boolean().describe("A gift card: the code is e-mailed once the order is paid."),
  }),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ slug: "oakley-aviator-coast-1" }],
  async handler({ slug, drafts }, ctx) {
    const product = await catalogProduct(ctx, slug, allowDrafts(ctx, drafts));
    const details = await ctx.collaborators.catalog.productDetails(product.id);
    return {
      slug: product.slug,
      name: product.name,
      answerSummary: details.answerSummary,
      faq: details.faq,
      useCases: details.useCases,
      comparisonFacts: details.comparisonFacts,
      attributes: details.attributes,
      giftCard: details.giftCard,
    };
  },
});
