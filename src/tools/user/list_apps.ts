// user.list_apps (internal): the apps the signed-in shopper let act for them over OAuth ("Forbundne apps" on /account):
// which app, with which shopper scopes, since when and last when. Tokens themselves are never shown.
import { z } from "zod";
import { listGrants } from "../keys/oauth-store.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { sessionCustomerId } from "./own-customer.ts";

export default defineTool({
  name: "user.list_apps",
  description: "The signed-in shopper's connected apps (OAuth grants), newest first. Returns [{id, clientId, clientName, scopes, createdAt, lastUsedAt}].",
  errors: [{ status: 422, code: "no_customer" }],
  input: z.strictObject({}),
  output: z.array(
    z.strictObject({
      id: z.string(),
      clientId: z.string().describe("The app's client id: its metadata document's URL, or the id registration gave it."),
      clientName: z.string().nullable(),
      scopes: z.array(z.string()),
      createdAt: isoDateTime,
      lastUsedAt: isoDateTime.nullable(),
    }),
  ),
  scope: "customer:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    const grants = await listGrants(ctx.db, ctx.now(), sessionCustomerId(ctx.caller));
    return grants.map((grant) => ({
      id: grant.id,
      clientId: grant.clientId,
      clientName: grant.clientName,
      scopes: grant.scopes,
      createdAt: grant.createdAt.toISOString(),
      lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
    }));
  },
});
