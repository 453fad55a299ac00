// address.lookup_postal_code: a Danish postal code to its city name (PostNord table).
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { defineTool, READ } from "../tool.ts";
import { lookupPostalCode } from "./postal-codes.ts";

export default defineTool({
  name: "address.lookup_postal_code",
  description: "City of a Danish postal code (8000 → Aarhus C). Returns {zip, city}.",
  input: z.strictObject({ zip: z.string().regex(/^\d{4}$/, "A Danish postal code is 4 digits").describe("Danish postal code.") }),
  output: z.strictObject({ zip: z.string(), city: z.string().describe("The official city name of the postal code.") }),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ zip: "8000" }, { zip: "1160" }],
  async handler({ zip }) {
    const found = lookupPostalCode(zip);
    if (!found) throw new NotFound(`There is no Danish postal code ${zip}.`);
    return found;
  },
});
