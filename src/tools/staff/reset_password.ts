// staff.reset_password: a new password for a staff user, which signs them out everywhere.
import { z } from "zod";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { generatedPassword, newPassword, staffEmail, staffView } from "./schemas.ts";
import { describeStaff, findStaff, generatePassword, setPassword, staffSnapshot } from "./service.ts";

export default defineTool({
  name: "staff.reset_password",
  description:
    "Give a staff user a new password and end their sessions. 403 for a user with scopes you lack. Returns {user, " +
    "generatedPassword (once, when none was given), sessionsEnded}; 404 unknown e-mail.",
  input: z.strictObject({ email: staffEmail, password: newPassword.optional() }),
  output: z.strictObject({
    user: staffView,
    generatedPassword,
    sessionsEnded: z.number().int().min(0).describe("How many signed-in sessions of the user ended."),
  }),
  scope: "staff:write",
  anonymous: false,
  audited: true,
  sensitive: ["password", "generatedPassword"],
  annotations: { ...UPDATE, idempotentHint: false },
  examples: [{ email: "lager@nordlys.dk" }],
  async handler({ email, password }, ctx) {
    const row = await findStaff(ctx.db, email);
    checkGrant(ctx.caller.scopes, row.scopes, `${row.email} has`);
    const chosen = password ?? generatePassword();
    const sessionsEnded = await setPassword(ctx.db, row.id, chosen, ctx.now());
    const snapshot = staffSnapshot(row);
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: snapshot, after: snapshot, note: `New password; ${sessionsEnded} session(s) ended.` });
    return { user: describeStaff(row), generatedPassword: password === undefined ? chosen : null, sessionsEnded };
  },
});
