// The slug rule of every URL a shop names (products, categories, pages, services): one rule, so links stay alike.
import { z } from "zod";

export const SLUG = /^[a-z0-9-]+$/;

/** A slug on write: lowercase letters, digits and hyphens, at least two. */
export const newSlug = z.string().min(2).regex(SLUG, "Use lowercase letters, digits and hyphens only").describe("URL slug: lowercase letters, digits, hyphens.");
