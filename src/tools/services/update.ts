// services.update: change an offering's texts, listing order or status; the slug stays.
import { z } from "zod";
import { undescribed } from "../fields.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { serviceFields, serviceSlug } from "./schemas.ts";
import { findService } from "./offerings.ts";

const { title, shortDescription, priceString, body, showInNav, navOrder, status } = serviceFields;

/** A field as services.create describes it (the patch says so once). */
const same = <T extends z.ZodType>(schema: T) => undescribed(schema).optional();

const patch = z
  .strictObject({
    title: same(title),
    shortDescription: same(shortDescription),
    priceString: same(priceString),
    body: same(body),
    showInNav: same(showInNav),
    navOrder: same(navOrder),
    status: same(status),
  })
  .refine((value) => Object.keys(value).length > 0, { message: "The patch must change at least one field." })
  .describe("Fields to change (as services.create); omitted ones stay.");

export default defineTool({
  name: "services.update",
  description: "Update a service offering (slug, hero image and features stay). Returns {id, slug}.",
  input: z.strictObject({ slug: serviceSlug, patch }),
  output: z.strictObject({ id: z.string(), slug: z.string() }),
  scope: "pages:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ slug: "synsproeve", patch: { priceString: "Gratis ved køb af briller", navOrder: 1 } }],
  async handler({ slug, patch }, ctx) {
    const before = await findService(ctx.db, slug);
    const { navOrder: order, ...rest } = patch;
    const after = await ctx.db.serviceOffering.update({
      where: { id: before.id },
      data: { ...rest, ...(order === undefined ? {} : { navOrder: BigInt(order) }) },
    });
    await ctx.audit({ subjectType: "serviceOffering", subjectId: after.id, before, after });
    return { id: after.id, slug: after.slug };
  },
});
