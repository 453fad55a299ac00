// staff.set_scopes: replace a staff user's scopes; their open sessions act with the new ones from the next request.
import { z } from "zod";
import { grantList } from "../keys/schemas.ts";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { staffEmail, staffView } from "./schemas.ts";
import { describeStaff, findStaff, keepAnOwner, staffSnapshot } from "./staff-users.ts";

export default defineTool({
  name: "staff.set_scopes",
  description:
    "Replace a staff user's scopes (from their next request); you must hold the old and new ones. Returns the user.",
  errors: [
    { status: 403, when: "old or new scopes you lack" },
    { status: 422, code: "last_owner", when: "no \"*\" user would remain" },
    { status: 404, when: "unknown e-mail" },
  ],
  input: z.strictObject({ email: staffEmail, scopes: grantList }),
  output: staffView,
  scope: "staff:write",
  anonymous: false,
  audited: true,
  annotations: UPDATE,
  examples: [{ email: "lager@nordlys.dk", scopes: ["orders:read", "orders:write", "catalog:read"] }],
  async handler({ email, scopes }, ctx) {
    const row = await findStaff(ctx.db, email);
    checkGrant(ctx.caller.scopes, row.scopes, `${row.email} has`);
    checkGrant(ctx.caller.scopes, scopes, "You cannot give a staff user");
    const wanted = [...new Set(scopes)];
    if (wanted.length === row.scopes.length && wanted.every((scope) => row.scopes.includes(scope))) {
      ctx.unchanged();
      return describeStaff(row);
    }
    await keepAnOwner(ctx.db, row, wanted);
    const after = await ctx.db.adminUser.update({ where: { id: row.id }, data: { scopes: wanted } });
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: staffSnapshot(row), after: staffSnapshot(after) });
    return describeStaff(after);
  },
});
