// user.revoke_app (internal): the signed-in shopper disconnects one of their apps: the grant and every code and token
// issued under it end at once. Another customer's grant is as unknown as a made-up id.
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { customerAccount } from "../keys/shopper-scopes.ts";
import { deleteGrant, findGrant } from "../keys/oauth-store.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { sessionCustomerId } from "./own-customer.ts";

export default defineTool({
  name: "user.revoke_app",
  description: "Disconnect one of the signed-in shopper's apps: its OAuth grant and tokens end at once. Returns {revoked}.",
  errors: [
    { status: 404, when: "no such app of this shopper" },
    { status: 422, code: "no_customer" },
  ],
  input: z.strictObject({ id: z.string().min(1).max(200).describe("The grant's id (user.list_apps).") }),
  output: z.strictObject({ revoked: z.literal(true) }),
  scope: "customer:write",
  anonymous: false,
  audited: true,
  internal: true,
  annotations: UPDATE,
  examples: [{ id: "grant-1" }],
  async handler({ id }, ctx) {
    const customerId = sessionCustomerId(ctx.caller);
    const grant = await findGrant(ctx.db, id, ctx.now());
    if (!grant || grant.staffId !== customerAccount(customerId)) throw new NotFound(`You have no connected app with grant ${id}.`);
    await deleteGrant(ctx.db, id);
    await ctx.audit({ subjectType: "oauthGrant", subjectId: id, before: { clientId: grant.clientId, clientName: grant.clientName, scopes: grant.scopes }, after: null });
    return { revoked: true as const };
  },
});
