// keys.create: a new API key with the given scopes; its secret is in this answer only.
import { z } from "zod";
import { Forbidden } from "../../core/errors.ts";
import { checkGrant } from "../scopes.ts";
import { TOOLSETS, toolsetList } from "../toolsets.ts";
import { defineTool, WRITE } from "../tool.ts";
import { grantList, keyView } from "./schemas.ts";
import { createKey, keySnapshot } from "./key-secrets.ts";

export default defineTool({
  name: "keys.create",
  description:
    "Create an API key (Bearer for REST and MCP) with scopes you hold. Returns {secret, key}: the secret is shown only " +
    "now; hand it over at once.",
  errors: [{ status: 403, when: "a scope or toolset you lack" }],
  input: z.strictObject({
    name: z.string().trim().min(1, "A key needs a name").max(100, "A key's name may have at most 100 characters").describe("What it is for, e.g. \"ERP sync\"."),
    scopes: grantList,
    toolsets: toolsetList.optional(),
  }),
  output: z.strictObject({ secret: z.string().describe("The key itself: send it as `Authorization: Bearer <secret>`."), key: keyView }),
  scope: "keys:write",
  anonymous: false,
  audited: true,
  sensitive: ["secret"],
  annotations: WRITE,
  examples: [{ name: "ERP-synkronisering", scopes: ["orders:read", "catalog:read"] }],
  async handler({ name, scopes, toolsets }, ctx) {
    checkGrant(ctx.caller.scopes, scopes, "You cannot give a key");
    // A caller limited to toolsets makes keys within them only: a key never reaches further than the one making it.
    const limited = ctx.caller.toolsets && (toolsets?.length ? toolsets : TOOLSETS).filter((name) => !ctx.caller.toolsets!.has(name));
    if (limited && limited.length) throw new Forbidden(`You cannot give a key the toolsets ${limited.join(", ")}: you are limited to ${[...ctx.caller.toolsets!].sort().join(", ")}.`);
    const created = await createKey(ctx.db, name, scopes, undefined, toolsets);
    await ctx.audit({ subjectType: "apiKey", subjectId: created.key.id, before: null, after: keySnapshot(created.key) });
    return created;
  },
});
