// keys.list: the API keys with their scopes and last use, never a secret or hash.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { keyView } from "./schemas.ts";
import { listKeys } from "./service.ts";

export default defineTool({
  name: "keys.list",
  description:
    "List the API keys, oldest first: id, name, the secret's first characters, scopes, created, last used and revoked " +
    "times. Secrets are never shown (they exist only when created). Filter with state \"active\" or \"revoked\".",
  input: z.strictObject({
    state: z.enum(["active", "revoked"]).optional().describe("Only active keys, or only revoked ones; both when omitted."),
  }),
  output: z.array(keyView),
  scope: "keys:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ state: "revoked" }],
  handler: ({ state }, ctx) => listKeys(ctx.db, state),
});
