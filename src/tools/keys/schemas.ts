// Shared shapes of the keys area: a key as tools show it (never its hash or secret) and the scope lists keys and staff
// users carry.
import { z } from "zod";
import { SCOPES, WILDCARD, type Grant } from "../scopes.ts";

const GRANTS: readonly [Grant, ...Grant[]] = [...SCOPES, WILDCARD];

export const grantList = z
  .array(z.enum(GRANTS, { error: (issue) => `Unknown scope "${String(issue.input)}"` }))
  .min(1)
  .max(GRANTS.length)
  .describe("Scopes you hold (\"*\" = all).");

export const keyId = z.string().min(1).max(100).describe("Key id.");

export const keyView = z.strictObject({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The secret's first characters, to recognise it (\"shop_AbC12xYz_…\")."),
  scopes: z.array(z.string()),
  toolsets: z.array(z.string()).optional().describe("The areas it is limited to (absent: all)."),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable().describe("Last authenticated call (recorded at most once a minute), or null."),
  revokedAt: z.iso.datetime().nullable().describe("When it was revoked (it no longer authenticates), or null while active."),
});
export type KeyView = z.infer<typeof keyView>;
