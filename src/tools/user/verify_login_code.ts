// user.verify_login_code: signs the storefront session in with the e-mailed code, under a new session id.
import { z } from "zod";
import { defineTool, WRITE } from "../tool.ts";
import { LOGIN_GUESSES_PER_EMAIL_PER_HOUR, verifyCode } from "./login.ts";

export default defineTool({
  name: "user.verify_login_code",
  description:
    "Finish a shopper's sign-in with the code from user.request_login_code: the session gets the customer and a new id " +
    "(cart and chats move). Returns {sessionId, customer}.",
  errors: [
    { status: 422, code: "invalid_code", when: "wrong, expired or used" },
    { status: 422, code: "too_many_attempts", when: "5 per code" },
    { status: 422, code: "no_session" },
    { status: 429, when: `past ${LOGIN_GUESSES_PER_EMAIL_PER_HOUR} tries per e-mail an hour` },
  ],
  input: z.strictObject({
    email: z.email().max(254).describe("The e-mail the code was sent to."),
    code: z.string().regex(/^\d{6}$/, "The code is 6 digits").describe("The 6-digit code."),
  }),
  output: z.strictObject({
    sessionId: z.string().describe("The session's new id (the cookie the door sets names it)."),
    customer: z.strictObject({ id: z.string(), email: z.string(), name: z.string().nullable() }).describe("The signed-in customer."),
  }),
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: WRITE,
  examples: [{ email: "kunde@example.dk", code: "123456" }],
  handler: ({ email, code }, ctx) => verifyCode(ctx, email, code),
});
