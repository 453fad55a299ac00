// address.validate: is this a plausible Danish address (postal code exists and matches the city)? With a normalised form.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { validateAddress } from "./postal-codes.ts";

export default defineTool({
  name: "address.validate",
  description:
    "Check a Danish address: the postal code must exist and match the city. Returns {valid, normalized (official " +
    "city), problems}.",
  input: z.strictObject({
    address: z.string().max(200).describe("Street and number."),
    zip: z.string().max(10).describe("Postal code, 4 digits."),
    city: z.string().max(100).describe("City as written."),
  }),
  output: z.strictObject({
    valid: z.boolean(),
    normalized: z.strictObject({ address: z.string(), zip: z.string(), city: z.string() }).nullable(),
    problems: z.array(z.string()).describe("Empty when valid."),
  }),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ address: "Strøget 12", zip: "1160", city: "københavn k" }],
  async handler(input) {
    return validateAddress(input);
  },
});
