// staff.request_password_reset: "Glemt adgangskode?" of the admin sign-in: e-mails a reset link if a staff user has the
// address, and answers the same either way.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { RESETS_PER_ADDRESS_PER_HOUR, RESETS_PER_EMAIL_PER_HOUR, sendPasswordLink, throttleResetRequest } from "./links.ts";
import { staffEmail } from "./schemas.ts";
import { normalizeEmail } from "./staff-users.ts";

export default defineTool({
  name: "staff.request_password_reset",
  description:
    "Forgotten staff password: e-mails a reset link (1 hour) if the address has a user; same answer either way. " +
    "Returns {email}.",
  errors: [
    { status: 429, when: `past ${RESETS_PER_EMAIL_PER_HOUR} an hour per e-mail or ${RESETS_PER_ADDRESS_PER_HOUR} per address` },
  ],
  input: z.strictObject({ email: staffEmail }),
  output: z.strictObject({ email: z.string() }),
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
