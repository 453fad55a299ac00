// staff.request_password_reset: "Glemt adgangskode?" of the admin sign-in: e-mails a reset link if a staff user has the
// address, and answers the same either way.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { RESETS_PER_ADDRESS_PER_HOUR, RESETS_PER_EMAIL_PER_HOUR, sendPasswordLink, throttleResetRequest } from "./links.ts";
import { staffEmail } from "./schemas.ts";
import { normalizeEmail } from "./service.ts";

export default defineTool({
  name: "staff.request_password_reset",
  description:
    "For a staff user who forgot their password: e-mails a link (1 hour, once) to choose a new one at /admin/password. " +
    `The answer is the same whether or not the e-mail has a user. 429 past ${RESETS_PER_EMAIL_PER_HOUR} per e-mail or ` +
    `${RESETS_PER_ADDRESS_PER_HOUR} per client address an hour. Returns {email}.`,
  input: z.strictObject({ email: staffEmail }),
  output: z.strictObject({ email: z.string().describe("The address, lower-cased.") }),
  scope: "staff:write",
  anonymous: true,
  audited: false,
  annotations: WRITE,
  // staff.create's example made this user (with or without it, the answer is the same).
  examples: [{ email: "lager@nordlys.dk" }],
  async handler({ email }, ctx) {
    await throttleResetRequest(ctx, email);
    const user = await ctx.db.adminUser.findUnique({ where: { email: normalizeEmail(email) } });
    if (user) await sendPasswordLink(ctx, user, "reset");
    return { email: normalizeEmail(email) };
  },
});
