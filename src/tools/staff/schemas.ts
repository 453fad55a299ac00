// Shared shapes of the staff area: a staff user as tools show it (never the password hash) and the inputs naming one.
import { z } from "zod";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// The format (our pattern, not zod's stricter one) lets the MCP listing say "email" instead of spelling the pattern out.
export const staffEmail = z
  .string()
  .trim()
  .max(254)
  .email({ pattern: EMAIL_PATTERN, error: "Not an e-mail address" })
  .describe("Staff e-mail.");

export const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH)
  .max(MAX_PASSWORD_LENGTH)
  .describe("Omit: generated (shown once).");

export const staffView = z.strictObject({
  id: z.string(),
  email: z.string(),
  scopes: z.array(z.string()).describe("What the user may do in the admin web and the admin assistant; \"*\" is every scope."),
  createdAt: z.iso.datetime(),
  lastLoginAt: z.iso.datetime().nullable(),
});
export type StaffView = z.infer<typeof staffView>;

export const generatedPassword = z
  .string()
  .nullable()
  .describe("The generated password when none was given (shown this once; hand it to the user), else null.");

/** The token of an e-mailed password link: 32 random bytes, base64url. */
export const passwordToken = z
  .string()
  .regex(/^[\w-]{43}$/, "Not a password link token")
  .describe("From the e-mailed link.");

/** What a sign-in or a redeemed setup link answers: the new session's token (for the cookie) and who signed in. */
export const signedInView = z.strictObject({ token: z.string(), staff: z.strictObject({ id: z.string(), email: z.string(), scopes: z.array(z.string()) }) });

/** The client facts a staff session keeps. */
export const sessionClient = {
  userAgent: z.string().max(16_384).optional().describe("The client's User-Agent, kept with the session."),
};
