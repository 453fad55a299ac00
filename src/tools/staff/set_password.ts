// staff.set_password: the form behind an e-mailed invitation or reset link: choose a password with the link's token.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { redeemPasswordLink } from "./links.ts";
import { newPassword, passwordToken } from "./schemas.ts";

export default defineTool({
  name: "staff.set_password",
  description:
    "Set a staff password with the token of an e-mailed invite or reset link; ends the user's sessions. Returns " +
    "{email}.",
  errors: [{ status: 422, code: "invalid_token", when: "unknown, used or expired" }],
  input: z.strictObject({ token: passwordToken, password: newPassword.describe("New password.") }),
  output: z.strictObject({ email: z.string() }),
  scope: "staff:write",
  anonymous: true,
  audited: true,
  sensitive: ["password", "token"],
  annotations: { ...UPDATE, idempotentHint: false },
  // The demo shop's trainee has an open invitation with this token (prisma/seed/history.ts); a real token is random.
  examples: [{ token: "ZGVtbzogaW52aXRhdGlvbiBvZiB0aGUgdHJhaW5lZSE", password: "nordlys-praktik-2026" }],
  handler: ({ token, password }, ctx) => redeemPasswordLink(ctx, token, password),
});
