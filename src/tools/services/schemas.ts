// Shared shapes of the services area (SPEC.md "Service offering"): write fields, summary and detail results.
import { z } from "zod";
import { markupText } from "../fields.ts";
import { MAX_INT } from "../shared/amounts.ts";
import { newSlug } from "../shared/slugs.ts";
import { isoDateTime } from "../shared/timestamps.ts";

const STATUSES = ["draft", "published"] as const;
export const status = z.enum(STATUSES).describe("draft hides it from /services.");

export const serviceSlug = z.string().min(1).max(200).describe("Offering slug.");

/** Write fields of an offering (create; a subset inside `patch` for update). */
export const serviceFields = {
  title: z.string().min(2).max(200).describe("Title on /services."),
  body: z.string().min(1).max(50_000).describe(markupText("Long copy")),
  slug: newSlug.describe("Permanent; default from the title."),
  shortDescription: z.string().min(1).max(500).describe("One-line teaser."),
  priceString: z.string().min(1).max(100).describe("Shown as is, e.g. \"Fra 395 kr.\"."),
  heroImage: z.url({ protocol: /^https?$/ }).max(2000).describe("Hero image URL."),
  features: z.array(z.string().min(1).max(200)).max(30).describe("Short bullet strings."),
  showInNav: z.boolean().describe("Admin flag; adds no header link itself."),
  navOrder: z.number().int().min(-MAX_INT).max(MAX_INT).describe("Sort key on /services."),
  status,
};

export const serviceSummary = z.strictObject({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  shortDescription: z.string().nullable(),
  priceString: z.string().nullable(),
  status,
  showInNav: z.boolean(),
  navOrder: z.number().int().describe("Sort key of the /services listing."),
  publicUrl: z.string().describe("Where the offering is (or, as a draft, will be) shown."),
  updatedAt: isoDateTime,
});

export const serviceDetail = z.strictObject({
  ...serviceSummary.shape,
  body: z.string(),
  heroImage: z.string().nullable(),
  features: z.array(z.string()),
  createdAt: isoDateTime,
});
