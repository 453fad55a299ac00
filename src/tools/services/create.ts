// services.create: a new service offering (published unless status says draft), slug generated from the title when omitted.
import { z } from "zod";
import { Conflict } from "../../core/errors.ts";
import { defineTool, WRITE } from "../tool.ts";
import { serviceFields, status } from "./schemas.ts";
import { publicServiceUrl, serviceStatus, slugify, uniqueServiceSlug } from "./offerings.ts";

const { title, body, slug, shortDescription, priceString, heroImage, features, showInNav, navOrder } = serviceFields;

export default defineTool({
  name: "services.create",
  description:
    "Create a service offering (e.g. an eye test) at /services; without slug one is made from the title (æ→ae, ø→oe, " +
    "å→aa, -2 if taken). Returns {id, slug, status, publicUrl}.",
  errors: [{ status: 409, when: "the slug is taken" }],
  input: z.strictObject({
    title,
    body,
    slug: slug.optional(),
    shortDescription: shortDescription.optional(),
    priceString: priceString.optional(),
    heroImage: heroImage.optional(),
    features: features.optional(),
    showInNav: showInNav.default(false).describe("Admin flag; adds no header link itself."),
    navOrder: navOrder.default(0).describe("Sort key on /services."),
    status: status.default("published"),
  }),
  output: z.strictObject({ id: z.string(), slug: z.string(), status, publicUrl: z.string().describe("Public page of the offering.") }),
  scope: "pages:write",
  anonymous: false,
  audited: true,
  annotations: WRITE,
  examples: [
    { title: "Synstest for bilister", body: "Kørekortsynsprøve med attest.", priceString: "295 kr.", status: "draft" },
  ],
  async handler(input, ctx) {
    let chosen: string;
    if (input.slug) {
      if (await ctx.db.serviceOffering.findUnique({ where: { slug: input.slug }, select: { id: true } })) {
        throw new Conflict(`A service offering with slug "${input.slug}" already exists.`);
      }
      chosen = input.slug;
    } else {
      chosen = await uniqueServiceSlug(ctx.db, slugify(input.title));
    }
    const row = await ctx.db.serviceOffering.create({
      data: { ...input, slug: chosen, navOrder: BigInt(input.navOrder) },
    });
    await ctx.audit({ subjectType: "serviceOffering", subjectId: row.id, before: null, after: row });
    return { id: row.id, slug: row.slug, status: serviceStatus(row), publicUrl: publicServiceUrl(ctx.config.publicBaseUrl, row.slug) };
  },
});
