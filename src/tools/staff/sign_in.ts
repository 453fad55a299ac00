// staff.sign_in (internal): the admin sign-in form's check — throttled, one answer for any wrong e-mail or password —
// and the new session, audited. The token exists only in the answer; the admin door puts it in the `shop_admin` cookie.
import { z } from "zod";
import { CommittedRefusal, RateLimited } from "../../core/errors.ts";
import { defineTool, WRITE } from "../tool.ts";
import { sessionClient, signedInView } from "./schemas.ts";
import { sessionSnapshot } from "./sessions.ts";
import { signIn, WrongCredentials } from "./sign-in.ts";
import { DEFAULT_THROTTLE } from "./throttle.ts";

export default defineTool({
  name: "staff.sign_in",
  description: "Sign a staff user in with e-mail and password. Returns {token, staff: {id, email, scopes}}.",
  // A wrong e-mail or password is 401 invalid_credentials (never which), like any call's 401.
  errors: [{ status: 429, when: "too many attempts for the account or from the address" }],
  input: z.strictObject({
    // The form's own limits (254 and 1000 characters) are the bounds; a longer header is cut where it is stored.
    email: z.string().max(254).describe("The staff user's e-mail."),
    password: z.string().max(1000).describe("Their password."),
    address: z.string().max(100).describe("The client's address, for the throttle."),
    ...sessionClient,
  }),
  output: signedInView,
  scope: "staff:write",
  anonymous: true,
  audited: true,
  internal: true,
  sensitive: ["password", "token"],
  annotations: WRITE,
  examples: [{ email: "admin@example.dk", password: "correct horse battery staple", address: "127.0.0.1" }],
  async handler(input, ctx) {
    try {
      const { token, session, staff } = await signIn(ctx.db, DEFAULT_THROTTLE, input, ctx.now());
      await ctx.audit({ subjectType: "staffSession", subjectId: session.id, before: null, after: sessionSnapshot(session), note: `Signed in as ${staff.email}.` });
      return { token, staff };
    } catch (error) {
      // A failed attempt is counted by the throttle: that row must be committed although the sign-in is refused.
      if (error instanceof WrongCredentials || error instanceof RateLimited) throw new CommittedRefusal(error);
      throw error;
    }
  },
});
