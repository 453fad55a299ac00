// Input fields many tools share, described once: the listing shows each description on every tool that uses it.
import { z } from "zod";

/** A page size; its range and default are in the schema itself, so the description does not repeat them. */
export const limit = (max: number, fallback: number, what = "Page size.") => z.number().int().min(1).max(max).default(fallback).describe(what);

/** How many items to skip before the page. */
export const offset = (max: number) => z.number().int().min(0).max(max).default(0).describe("Items to skip.");

/** How a long text field is written (pages, services, layout text sections). */
export const markupText = (what: string) => `${what}; "## " starts a heading, a blank line a paragraph.`;

/**
 * A field without its description, for the patch of an update tool whose create tool describes the same field: the
 * patch says so once instead of the listing repeating each description.
 */
export const undescribed = <T extends z.ZodType>(schema: T): T => schema.meta({ description: undefined });

/** The explicit yes a permanent deletion needs. */
export const confirmDeletion = z.literal(true).describe("Confirms the deletion.");
