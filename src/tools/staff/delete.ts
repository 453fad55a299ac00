// staff.delete: remove a staff user for good; their sessions end with them. Not oneself, not the last owner.
import { z } from "zod";
import { confirmDeletion } from "../fields.ts";
import { Refused } from "../../core/errors.ts";
import { checkGrant } from "../scopes.ts";
import { DESTRUCTIVE, defineTool } from "../tool.ts";
import { staffEmail } from "./schemas.ts";
import { findStaff, keepAnOwner, staffSnapshot } from "./staff-users.ts";

export default defineTool({
  name: "staff.delete",
  description: "Delete a staff user and end their sessions (the audit log keeps their changes). Returns {ok, email}.",
  errors: [
    { status: 403, when: "a user with scopes you lack" },
    { status: 422, code: "own_account" },
    { status: 422, code: "last_owner" },
    { status: 404, when: "unknown e-mail" },
  ],
  input: z.strictObject({
    email: staffEmail,
    confirm: confirmDeletion,
  }),
  output: z.strictObject({ ok: z.literal(true), email: z.string() }),
  scope: "staff:write",
  anonymous: false,
  audited: true,
  annotations: DESTRUCTIVE,
  examples: [{ email: "vikar@nordlys.dk", confirm: true }],
  async handler({ email }, ctx) {
    const row = await findStaff(ctx.db, email);
    checkGrant(ctx.caller.scopes, row.scopes, `${row.email} has`);
    if (ctx.caller.staffId === row.id) throw new Refused("own_account", "You cannot delete your own staff user; another staff user can.");
    await keepAnOwner(ctx.db, row, null);
    await ctx.db.adminUser.delete({ where: { id: row.id } });
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: staffSnapshot(row), after: null });
    return { ok: true as const, email: row.email };
  },
});
