// Shared shapes of the pages area (SPEC.md "Page"): slug, status and the page row results.
import { z } from "zod";
import { newSlug } from "../shared/slugs.ts";
import { isoDateTime } from "../shared/timestamps.ts";

export const pageStatus = z.enum(["draft", "published"]).describe("draft hides it.");

export const pageSlug = newSlug.describe("URL /info/<slug>.");

export const pageRow = z.strictObject({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  status: pageStatus,
  updatedAt: isoDateTime,
});

export const pageDetail = z.strictObject({
  ...pageRow.shape,
  body: z.string().describe("Body text: \"## \" lines are headings, blank lines separate paragraphs."),
  hasLayout: z.boolean().describe("Whether a valid section layout is set (then /info/<slug> renders the layout instead of the body)."),
  publicUrl: z.string().describe("Where the page is (or, as a draft, will be) served."),
  createdAt: isoDateTime,
});
