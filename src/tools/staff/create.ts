// staff.create: a new staff user for the admin web and the admin assistant, with scopes the caller holds itself.
import { z } from "zod";
import { grantList } from "../keys/schemas.ts";
import { checkGrant } from "../scopes.ts";
import { defineTool, WRITE } from "../tool.ts";
import { generatedPassword, newPassword, staffEmail, staffView } from "./schemas.ts";
import { createStaff, describeStaff, generatePassword, staffSnapshot } from "./service.ts";

export default defineTool({
  name: "staff.create",
  description:
    "Create a staff user (signs in at /admin/login) with scopes you hold yourself (403 otherwise). 409 when the e-mail has " +
    "a user. Returns {user, generatedPassword (once, when no password was given)}.",
  input: z.strictObject({
    email: staffEmail,
    password: newPassword.optional(),
    scopes: grantList,
  }),
  output: z.strictObject({ user: staffView, generatedPassword }),
  scope: "staff:write",
  anonymous: false,
  audited: true,
  sensitive: ["password", "generatedPassword"],
  annotations: WRITE,
  // staff.delete, staff.reset_password and staff.set_scopes act on these users in their examples.
  examples: [
    { email: "lager@nordlys.dk", scopes: ["orders:read", "orders:write"] },
    { email: "vikar@nordlys.dk", password: "sommer-vikar-2026", scopes: ["orders:read"] },
  ],
  async handler({ email, password, scopes }, ctx) {
    checkGrant(ctx.caller.scopes, scopes, "You cannot give a staff user");
    const chosen = password ?? generatePassword();
    const row = await createStaff(ctx.db, { email, password: chosen, scopes });
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: null, after: staffSnapshot(row) });
    return { user: describeStaff(row), generatedPassword: password === undefined ? chosen : null };
  },
});
