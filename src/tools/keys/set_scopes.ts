// keys.set_scopes: replace a key's scopes; the key acts with the new ones from its next call.
import { z } from "zod";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { grantList, keyId, keyView } from "./schemas.ts";
import { describeKey, findKey, keySnapshot } from "./key-secrets.ts";

export default defineTool({
  name: "keys.set_scopes",
  description:
    "Replace a key's scopes (same secret) from its next call; you must hold the old and new ones. Returns the key.",
  errors: [{ status: 403, when: "old or new scopes you lack" }],
  input: z.strictObject({ id: keyId, scopes: grantList }),
  output: keyView,
  scope: "keys:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ id: "demo-api-key-kasse", scopes: ["orders:read"] }],
  async handler({ id, scopes }, ctx) {
    const row = await findKey(ctx.db, id);
    checkGrant(ctx.caller.scopes, row.scopes, "This key has");
    checkGrant(ctx.caller.scopes, scopes, "You cannot give a key");
    const wanted = [...new Set(scopes)];
    if (sameSet(row.scopes, wanted)) {
      ctx.unchanged();
      return describeKey(row);
    }
    const after = describeKey(await ctx.db.apiKey.update({ where: { id }, data: { scopes: wanted } }));
    await ctx.audit({ subjectType: "apiKey", subjectId: id, before: keySnapshot(describeKey(row)), after: keySnapshot(after) });
    ctx.collaborators.keys.changed(ctx);
    return after;
  },
});

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}
