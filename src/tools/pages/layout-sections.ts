// The visual-builder section tree of a page (DESIGN.md "Page layouts"): strict per-type props, bounded size and depth.
import { z } from "zod";
import { markupText } from "../fields.ts";

/** How many levels of `columns` may nest (a columns section inside a columns section inside … ). */
const MAX_COLUMN_DEPTH = 2;
const MAX_TOP_SECTIONS = 50;
const MAX_SECTIONS_PER_COLUMN = 20;
const MAX_TOTAL_SECTIONS = 200;

const url = (what: string) => z.url({ protocol: /^https?$/ }).max(2000).describe(`${what}, http(s).`);
/** A text prop; one whose name says it all (heading, caption, label …) goes without a description. */
const text = (max: number, what?: string) => (what ? z.string().min(1).max(max).describe(what) : z.string().min(1).max(max));
const id = z.string().min(1).max(64);

const hero = z.strictObject({
  id,
  type: z.literal("hero"),
  props: z
    .strictObject({
      heading: text(200),
      subheading: text(500).optional(),
      imageUrl: url("Background/side image").optional(),
      ctaLabel: text(80, "Button text (give ctaUrl too)").optional(),
      ctaUrl: url("Button target (give ctaLabel too)").optional(),
    })
    .refine((p) => (p.ctaLabel === undefined) === (p.ctaUrl === undefined), { message: "Give ctaLabel and ctaUrl together, or neither." }),
});

const textSection = z.strictObject({
  id,
  type: z.literal("text"),
  props: z.strictObject({
    heading: text(200).optional(),
    body: text(20_000, markupText("Text")),
  }),
});

const image = z.strictObject({
  id,
  type: z.literal("image"),
  props: z.strictObject({
    url: url("Image"),
    alt: z.string().max(300).describe("Alt text (empty for a decorative image)."),
    caption: text(300).optional(),
  }),
});

const productGrid = z.strictObject({
  id,
  type: z.literal("product_grid"),
  props: z
    .strictObject({
      title: text(200).optional(),
      productSlugs: z.array(z.string().min(1).max(200)).min(1).max(24).describe("In order; unknown ones skipped.").optional(),
      categorySlug: z.string().min(1).max(200).describe("Or this category's first (featured first).").optional(),
      limit: z.number().int().min(1).max(24).describe("Default 8 for a category, else all slugs.").optional(),
    })
    .refine((p) => (p.productSlugs === undefined) !== (p.categorySlug === undefined), { message: "Give either productSlugs or categorySlug (exactly one)." }),
});

const cta = z.strictObject({
  id,
  type: z.literal("cta"),
  props: z.strictObject({
    label: text(80),
    url: url("Button target"),
    text: text(500, "Line shown before the button").optional(),
    style: z.enum(["primary", "secondary"]).describe("Button look (default primary).").optional(),
  }),
});

const faq = z.strictObject({
  id,
  type: z.literal("faq"),
  props: z.strictObject({
    title: text(200).optional(),
    items: z.array(z.strictObject({ q: text(300), a: text(5000) })).min(1).max(50).describe("Questions with answers."),
  }),
});

type Leaf = z.infer<typeof hero> | z.infer<typeof textSection> | z.infer<typeof image> | z.infer<typeof productGrid> | z.infer<typeof cta> | z.infer<typeof faq>;
type ColumnsSection = { id: string; type: "columns"; props: { columns: Section[][] } };
export type Section = Leaf | ColumnsSection;
export type Layout = { sections: Section[] };

const TYPES = "hero, text, image, product_grid, cta, faq, columns";

/** A section schema in which `columns` may nest `depth` more levels; built finitely, so no recursion bombs and finite JSON Schemas. */
function sectionSchema(depth: number): z.ZodType<Section> {
  const leaves = [hero, textSection, image, productGrid, cta, faq] as const;
  const unknownType = { error: depth > 0 ? `Unknown section type; use one of ${TYPES}.` : `Unknown section type (columns may nest at most ${MAX_COLUMN_DEPTH} levels); use one of ${TYPES}.` };
  if (depth === 0) return z.discriminatedUnion("type", [...leaves], unknownType);
  const inner = sectionSchema(depth - 1);
  const columns = z.strictObject({
    id,
    type: z.literal("columns"),
    props: z.strictObject({
      columns: z
        .array(z.array(inner).min(1).max(MAX_SECTIONS_PER_COLUMN))
        .min(2)
        .max(4)
        .describe("Side by side, each a list of sections."),
    }),
  });
  return z.discriminatedUnion("type", [...leaves, columns], unknownType);
}

/** Every section of the tree, depth first. */
export function walk(sections: readonly Section[]): Section[] {
  return sections.flatMap((section) => (section.type === "columns" ? [section, ...walk(section.props.columns.flat())] : [section]));
}

export const layoutSchema: z.ZodType<Layout> = z
  .strictObject({
    sections: z.array(sectionSchema(MAX_COLUMN_DEPTH)).min(1).max(MAX_TOP_SECTIONS).describe("Sections, top to bottom."),
  })
  .superRefine((layout, issue) => {
    const all = walk(layout.sections);
    if (all.length > MAX_TOTAL_SECTIONS) issue.addIssue({ code: "custom", path: ["sections"], message: `At most ${MAX_TOTAL_SECTIONS} sections in total.` });
    const seen = new Set<string>();
    for (const section of all) {
      if (seen.has(section.id)) issue.addIssue({ code: "custom", path: ["sections"], message: `Section id "${section.id}" is used twice; ids must be unique.` });
      seen.add(section.id);
    }
  })
  .describe("Sections {id, type, props}; columns nest them.");

/** The stored layout if it is (still) valid under the schema, else null (the page then renders from its body). */
export function validLayout(stored: unknown): Layout | null {
  if (stored === null || stored === undefined) return null;
  const parsed = layoutSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
