// staff.reset_password: a new password for a staff user, which signs them out everywhere; or an e-mailed reset link.
import { z } from "zod";
import { Invalid } from "../../core/errors.ts";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { sendPasswordLink } from "./links.ts";
import { generatedPassword, newPassword, staffEmail, staffView } from "./schemas.ts";
import { describeStaff, findStaff, generatePassword, setPassword, staffSnapshot } from "./staff-users.ts";

export default defineTool({
  name: "staff.reset_password",
  description:
    "New password for a staff user (ends their sessions), or sendLink e-mails a reset link (1 hour). Returns {user, " +
    "generatedPassword (once, if generated), sessionsEnded}.",
  errors: [
    { status: 403, when: "a user with scopes you lack" },
    { status: 404, when: "unknown e-mail" },
  ],
  input: z.strictObject({
    email: staffEmail,
    password: newPassword.optional(),
    sendLink: z.boolean().optional().describe("E-mail a reset link instead."),
  }),
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
  examples: [{ email: "lager@nordlys.dk" }, { email: "lager@nordlys.dk", sendLink: true }],
  async handler({ email, password, sendLink }, ctx) {
    if (sendLink && password !== undefined) throw new Invalid("Give a password or sendLink, not both.", [{ path: "sendLink", message: "Not with password" }]);
    const row = await findStaff(ctx.db, email);
    checkGrant(ctx.caller.scopes, row.scopes, `${row.email} has`);
    const snapshot = staffSnapshot(row);
    if (sendLink) {
      await sendPasswordLink(ctx, row, "reset");
      await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: snapshot, after: snapshot, note: "Reset link e-mailed." });
      return { user: describeStaff(row), generatedPassword: null, sessionsEnded: 0 };
    }
    const chosen = password ?? generatePassword();
    const sessionsEnded = await setPassword(ctx.db, row.id, chosen, ctx.now());
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: snapshot, after: snapshot, note: `New password; ${sessionsEnded} session(s) ended.` });
    return { user: describeStaff(row), generatedPassword: password === undefined ? chosen : null, sessionsEnded };
  },
});
