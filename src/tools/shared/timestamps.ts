// How every tool's output states a moment: `date.toISOString()`, so always UTC and ending in Z.
import { z } from "zod";

export const isoDateTime = z.iso.datetime().describe("ISO 8601 UTC timestamp ending in Z.");
