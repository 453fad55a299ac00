// user.request_login_code: e-mails a one-time sign-in code for the caller's storefront session.
import { z } from "zod";
import { orderNumber } from "../orders/schemas.ts";
import { defineTool, WRITE } from "../tool.ts";
import { LOGIN_CODES_PER_EMAIL_PER_HOUR, requestCode } from "./login.ts";

export default defineTool({
  name: "user.request_login_code",
  description:
    "Start a shopper's sign-in: a 6-digit code (10 minutes, 5 tries) for this session, e-mailed only if a customer has " +
    "the address (with orderNumber: placed that order); same answer either way. Returns {email, expiresAt}.",
  errors: [
    { status: 422, code: "no_session", when: "no session cookie" },
    { status: 429, when: `past ${LOGIN_CODES_PER_EMAIL_PER_HOUR} codes per e-mail an hour` },
  ],
  input: z.strictObject({
    email: z.email().max(254).describe("Any case."),
    orderNumber: orderNumber.optional().describe("Placed with this e-mail (#1001 → 1001)."),
  }),
  output: z.strictObject({
    email: z.string().describe("The address, lower-cased."),
    expiresAt: z.string().describe("When the code stops working (ISO 8601)."),
  }),
  scope: "cart:write",
  anonymous: false,
  audited: false,
  annotations: WRITE,
  examples: [{ email: "kunde@example.dk" }, { email: "kunde@example.dk", orderNumber: 1001 }],
  handler: ({ email, orderNumber }, ctx) => requestCode(ctx, email, orderNumber),
});
