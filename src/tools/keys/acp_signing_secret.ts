// keys.acp_signing_secret (internal): the secret an ACP platform's key signs its requests with (keys.set_acp), which
// the ACP door checks each request's Signature against. Never shown: no door lists or serves this tool.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { acpSigningSecret } from "./key-secrets.ts";

export default defineTool({
  name: "keys.acp_signing_secret",
  description: "An API key's ACP signing secret, or null when its requests are not signed. Returns {secret}.",
  input: z.strictObject({ keyId: z.string().min(1).max(100).describe("The API key's id.") }),
  output: z.strictObject({ secret: z.string().nullable() }),
  scope: "keys:read",
  anonymous: false,
  audited: false,
  internal: true,
  sensitive: ["secret"],
  annotations: READ,
  examples: [{ keyId: "c000000000000000000000000" }],
  async handler({ keyId }, ctx) {
    return { secret: await acpSigningSecret(ctx.db, keyId) };
  },
});
