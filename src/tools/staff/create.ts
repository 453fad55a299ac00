// staff.create: a new staff user for the admin web and the admin assistant, with scopes the caller holds itself; with
// invite, the user chooses their own password through an e-mailed link.
import { z } from "zod";
import { Invalid } from "../../core/errors.ts";
import { grantList } from "../keys/schemas.ts";
import { checkGrant } from "../scopes.ts";
import { defineTool, WRITE } from "../tool.ts";
import { sendPasswordLink } from "./links.ts";
import { generatedPassword, newPassword, staffEmail, staffView } from "./schemas.ts";
import { createStaff, describeStaff, generatePassword, staffSnapshot } from "./staff-users.ts";

export default defineTool({
  name: "staff.create",
  description:
    "Create a staff user with scopes you hold; invite e-mails a link to choose a password (7 days). Returns {user, " +
    "generatedPassword (once, if generated)}.",
  errors: [
    { status: 403, when: "a scope you lack" },
    { status: 409, when: "the e-mail is taken" },
  ],
  input: z.strictObject({
    email: staffEmail,
    password: newPassword.optional(),
    scopes: grantList,
    invite: z.boolean().optional().describe("E-mail a link, not a password."),
  }),
  output: z.strictObject({ user: staffView, generatedPassword }),
  scope: "staff:write",
  anonymous: false,
  audited: true,
  sensitive: ["password", "generatedPassword"],
  annotations: WRITE,
  // staff.delete, staff.request_password_reset, staff.reset_password and staff.set_scopes act on these users in their examples.
  examples: [
    { email: "lager@nordlys.dk", scopes: ["orders:read", "orders:write"] },
    { email: "vikar@nordlys.dk", password: "sommer-vikar-2026", scopes: ["orders:read"] },
    { email: "butik@nordlys.dk", scopes: ["orders:read", "catalog:read"], invite: true },
  ],
  async handler({ email, password, scopes, invite }, ctx) {
    if (invite && password !== undefined) throw new Invalid("Give a password or invite, not both.", [{ path: "invite", message: "Not with password" }]);
    checkGrant(ctx.caller.scopes, scopes, "You cannot give a staff user");
    const chosen = invite ? null : (password ?? generatePassword());
    const row = await createStaff(ctx.db, { email, password: chosen, scopes });
    if (invite) await sendPasswordLink(ctx, row, "invite");
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: null, after: staffSnapshot(row), ...(invite ? { note: "Invitation e-mailed." } : {}) });
    return { user: describeStaff(row), generatedPassword: password === undefined && !invite ? chosen : null };
  },
});
