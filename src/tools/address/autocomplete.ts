// address.autocomplete: Danish address suggestions for partly typed text, from the postal-code table and known addresses.
import { z } from "zod";
import { limit } from "../fields.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Caller } from "../context.ts";
import { hasScope } from "../scopes.ts";
import { defineTool, READ } from "../tool.ts";
import { cityKey, postalCodes } from "./postal-codes.ts";

const suggestion = z.strictObject({
  address: z.string().nullable().describe("Street and number, or null for a postal-code suggestion."),
  zip: z.string(),
  city: z.string(),
  source: z.enum(["postal_code", "known_address"]),
});

/** Whose known addresses the caller may see: all (staff key with customer:read), one customer (storefront session), or none. */
function knownScope(caller: Caller): Prisma.Sql | null {
  if (caller.kind !== "session" && hasScope(caller.scopes, "customer:read")) return Prisma.sql`TRUE`;
  const own = caller.session?.customerId;
  return own ? Prisma.sql`owner = ${own}` : null;
}

export default defineTool({
  name: "address.autocomplete",
  description:
    "Danish address suggestions for a partly typed q: known addresses (a shopper's own; staff with customer:read: " +
    "all), then postal codes. Returns [{address (null: postal code), zip, city, source}].",
  input: z.strictObject({
    q: z.string().trim().min(2).max(100).describe("Street, postal code or city, as typed so far."),
    limit: limit(20, 10),
  }),
  output: z.array(suggestion),
  scope: "catalog:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ q: "8000" }, { q: "Aarh", limit: 5 }],
  async handler({ q, limit }, ctx) {
    const scope = knownScope(ctx.caller);
    const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const known = scope
      ? await ctx.db.$queryRaw<Array<{ address: string; zip: string; city: string }>>`
          SELECT min(address) AS address, zip, min(city) AS city FROM (
            SELECT address, zip, city, "customerId" AS owner, "lastUsedAt" AS at FROM "Address"
            UNION ALL
            SELECT "shippingAddress", "shippingZip", "shippingCity", "userId", "createdAt" FROM "Order"
          ) known
          WHERE ${scope} AND (address || ', ' || zip || ' ' || city) ILIKE ${pattern}
          GROUP BY lower(address), zip
          ORDER BY max(at) DESC
          LIMIT ${limit}`
      : [];
    const key = cityKey(q);
    const codes = postalCodes()
      .filter((p) => p.zip.startsWith(q) || cityKey(p.city).startsWith(key))
      .slice(0, limit - known.length)
      .map((p) => ({ address: null, zip: p.zip, city: p.city, source: "postal_code" as const }));
    return [...known.map((k) => ({ ...k, source: "known_address" as const })), ...codes];
  },
});
