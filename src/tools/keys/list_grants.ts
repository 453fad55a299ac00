// keys.list_grants (internal): the OAuth grants ("Forbundne apps"): which client acts for which staff user, with which
// scopes and toolsets, since when and last when. The admin page lists them; tokens themselves are never shown.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { listGrants } from "./oauth-store.ts";

export const grantView = z.strictObject({
  id: z.string(),
  clientId: z.string().describe("The client's id: its metadata document's URL, or the id dynamic registration gave it."),
  clientName: z.string().nullable(),
  staffId: z.string(),
  staffEmail: z.string().nullable(),
  scopes: z.array(z.string()),
  toolsets: z.array(z.string()).nullable().describe("The toolsets the staff user limited the grant to on the consent page; null: every toolset."),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable(),
});

export default defineTool({
  name: "keys.list_grants",
  description: "OAuth grants of connected apps, newest first. Returns [{id, clientId, clientName, staffId, staffEmail, scopes, toolsets, createdAt, lastUsedAt}].",
  input: z.strictObject({}),
  output: z.array(grantView),
  scope: "keys:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const grants = await listGrants(ctx.db, ctx.now());
    const staff = await ctx.db.adminUser.findMany({ where: { id: { in: grants.map((grant) => grant.staffId) } }, select: { id: true, email: true } });
    const emails = new Map(staff.map((user) => [user.id, user.email]));
    return grants.map((grant) => ({
      id: grant.id,
      clientId: grant.clientId,
      clientName: grant.clientName,
      staffId: grant.staffId,
      staffEmail: emails.get(grant.staffId) ?? null,
      scopes: grant.scopes,
      toolsets: grant.toolsets,
      createdAt: grant.createdAt.toISOString(),
      lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
    }));
  },
});
