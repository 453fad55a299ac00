// keys.revoke: a key stops authenticating at once (in this process; others within seconds). Revoking twice is a no-op.
import { z } from "zod";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { keyId, keyView } from "./schemas.ts";
import { describeKey, findKey, keySnapshot } from "./key-secrets.ts";

export default defineTool({
  name: "keys.revoke",
  description: "Revoke an API key at once, for good. Returns the key.",
  errors: [{ status: 403, when: "a key with scopes you lack" }],
  input: z.strictObject({ id: keyId }),
  output: keyView,
  scope: "keys:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ id: "demo-api-key-kasse" }],
  async handler({ id }, ctx) {
    const row = await findKey(ctx.db, id);
    checkGrant(ctx.caller.scopes, row.scopes, "This key has");
    if (row.revokedAt) {
      ctx.unchanged();
      return describeKey(row);
    }
    const after = describeKey(await ctx.db.apiKey.update({ where: { id }, data: { revokedAt: ctx.now() } }));
    await ctx.audit({ subjectType: "apiKey", subjectId: id, before: keySnapshot(describeKey(row)), after: keySnapshot(after) });
    ctx.collaborators.keys.changed(ctx);
    return after;
  },
});
