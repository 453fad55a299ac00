// keys.revoke_grant (internal): disconnects an app: the grant and every code and token issued under it end at once.
// A staff user may revoke their own grants; another user's only with keys:write over scopes they hold themselves.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { deleteGrant, findGrant } from "./oauth-store.ts";

export default defineTool({
  name: "keys.revoke_grant",
  description: "Revoke a connected app's OAuth grant and its tokens at once. Returns {revoked}.",
  errors: [
    { status: 404, when: "unknown grant" },
    { status: 403, when: "a grant with scopes you lack" },
  ],
  input: z.strictObject({ id: z.string().min(1).max(200).describe("The grant's id (keys.list_grants).") }),
  output: z.strictObject({ revoked: z.literal(true) }),
  scope: "keys:write",
  anonymous: false,
  audited: true,
  internal: true,
  annotations: UPDATE,
  examples: [{ id: "grant-1" }],
  async handler({ id }, ctx) {
    const grant = await findGrant(ctx.db, id, ctx.now());
    if (!grant) throw new NotFound(`No connected app with grant ${id}.`);
    if (ctx.caller.staffId !== grant.staffId) checkGrant(ctx.caller.scopes, grant.scopes, "This app has");
    await deleteGrant(ctx.db, id);
    const before = { clientId: grant.clientId, clientName: grant.clientName, staffId: grant.staffId, scopes: grant.scopes };
    await ctx.audit({ subjectType: "oauthGrant", subjectId: id, before, after: null });
    return { revoked: true as const };
  },
});
