// Whole numbers every area declares: money in øre, stock, counts. JSON numbers are doubles, so bounds stop at 2^53 - 1.
import { z } from "zod";

/** The largest integer a JSON number carries exactly (Number.MAX_SAFE_INTEGER): the upper bound of money and counts. */
export const MAX_INT = 9007199254740991;

/** An amount of money: integer øre, bounded so it survives JSON and a BigInt column. */
export const oere = (what: string) => z.number().int().max(MAX_INT).describe(`${what}, integer øre (1 DKK = 100 øre).`);
