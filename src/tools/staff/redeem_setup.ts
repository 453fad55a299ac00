// staff.redeem_setup (internal): the first-run setup link spent — the first staff user (every scope) and a session for
// them, audited, all or nothing. The admin door puts the session's token in the `shop_admin` cookie.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { sessionClient, signedInView } from "./schemas.ts";
import { sessionSnapshot, openSession } from "./sessions.ts";
import { staffSnapshot } from "./staff-users.ts";
import { redeemSetupToken } from "./setup.ts";

export default defineTool({
  name: "staff.redeem_setup",
  description: "Create the first staff user with a setup link's token and sign them in. Returns {token, staff: {id, email, scopes}}.",
  errors: [{ status: 422, code: "setup_link_invalid" }],
  input: z.strictObject({
    // Unbounded like the form field it comes from: a token of any other length is simply not a valid link (422).
    token: z.string().describe("The setup link's token."),
    email: z.string().max(254).describe("The first staff user's e-mail."),
    password: z.string().describe("Their new password (the staff password rules apply)."),
    address: z.string().max(100).optional().describe("The client's address, kept with the session."),
    ...sessionClient,
  }),
  output: signedInView,
  scope: "staff:write",
  anonymous: true,
  audited: true,
  internal: true,
  sensitive: ["password", "token"],
  annotations: WRITE,
  examples: [{ token: "setup-token", email: "admin@example.dk", password: "correct horse battery staple" }],
  async handler(input, ctx) {
    const now = ctx.now();
    const row = await redeemSetupToken(ctx.db, input.token, input, now);
    await ctx.audit({ subjectType: "adminUser", subjectId: row.id, before: null, after: staffSnapshot(row), note: "First staff user, from the setup link." });
    const { token, session } = await openSession(ctx.db, row.id, now, { address: input.address, userAgent: input.userAgent });
    await ctx.audit({ subjectType: "staffSession", subjectId: session.id, before: null, after: sessionSnapshot(session) });
    return { token, staff: { id: row.id, email: row.email, scopes: row.scopes } };
  },
});
