// keys.rotate_signing (internal): the operator's `shop keys rotate-signing`, one on-demand rotation of the UCP signing
// keys in the call's transaction with its audit entry (kids only, never key material). Another process rotating at the
// same instant answers 409; the CLI calls again. Only the CLI needs it: no door lists or serves it.
import { z } from "zod";
import { Conflict } from "../../core/errors.ts";
import { defineTool, DESTRUCTIVE } from "../tool.ts";
import { rotateSigningKeyIn, SIGNING_KEY_GRACE_MS, SigningKeysRaced } from "./signing-keys.ts";

export default defineTool({
  name: "keys.rotate_signing",
  description:
    "Replace the shop's UCP signing key now: a key published as next takes over, else a new one; the replaced key stays published 7 days, or with revoke every other key is deleted at once. Returns {kid, previous, deleted, publishedUntil}.",
  input: z.strictObject({ revoke: z.boolean().default(false).describe("Delete every other key at once (a compromise) instead of keeping the replaced one published.") }),
  output: z.strictObject({
    kid: z.string(),
    previous: z.string().nullable(),
    deleted: z.array(z.string()),
    publishedUntil: z.string().nullable(),
  }),
  scope: "keys:write",
  anonymous: false,
  audited: true,
  internal: true,
  errors: [{ status: 409, when: "another process changed the signing keys meanwhile (call again)" }],
  annotations: DESTRUCTIVE,
  examples: [{}],
  async handler({ revoke }, ctx) {
    try {
      const rotation = await rotateSigningKeyIn(ctx.db, { revoke, now: ctx.now(), graceMs: SIGNING_KEY_GRACE_MS });
      const output = { kid: rotation.kid, previous: rotation.previous ?? null, deleted: rotation.deleted, publishedUntil: rotation.publishedUntil?.toISOString() ?? null };
      await ctx.audit({ subjectType: "signingKey", subjectId: rotation.kid, before: { current: output.previous }, after: { current: output.kid, deleted: output.deleted, publishedUntil: output.publishedUntil } });
      return output;
    } catch (error) {
      if (error instanceof SigningKeysRaced) throw new Conflict(error.message);
      throw error;
    }
  },
});
