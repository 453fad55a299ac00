// keys.list: the API keys with their scopes and last use, never a secret or hash.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { keyView } from "./schemas.ts";
import { listKeys } from "./key-secrets.ts";

export default defineTool({
  name: "keys.list",
  description:
    "API keys, oldest first, without secrets. Returns [{id, name, prefix, scopes, lastUsedAt, revokedAt, …}].",
  input: z.strictObject({
    state: z.enum(["active", "revoked"]).optional().describe("Omit for both."),
  }),
  output: z.array(keyView),
  scope: "keys:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ state: "revoked" }],
  handler: ({ state }, ctx) => listKeys(ctx.db, state),
});
