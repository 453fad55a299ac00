// keys.set_acp: an API key's Agentic Commerce Protocol settings (the platform's request-signing secret and order
// webhook URL). Separate from keys.create so that tool's contract stays as it is.
import { z } from "zod";
import { checkGrant } from "../scopes.ts";
import { defineTool, UPDATE } from "../tool.ts";
import { checkReceiver } from "../webhooks/endpoints.ts";
import { keyId } from "./schemas.ts";
import { findKey } from "./key-secrets.ts";

const acpSettingsView = z.strictObject({
  id: z.string().describe("The key's id."),
  signingSecretSet: z.boolean().describe("Whether ACP requests made with this key must carry a valid Signature + Timestamp."),
  webhookUrl: z.string().nullable().describe("Where the agent platform receives order events, or null."),
});

export default defineTool({
  name: "keys.set_acp",
  description:
    "Set or clear a key's ACP settings (omitted fields stay); with a signing secret its /acp calls need a valid " +
    "Signature and fresh Timestamp. Returns {id, signingSecretSet, webhookUrl}.",
  errors: [
    { status: 403, when: "a key with scopes you lack" },
    { status: 422, code: "receiver_not_allowed", when: "a webhook URL on a private address" },
  ],
  input: z.strictObject({
    id: keyId,
    signingSecret: z.string().min(16, "A signing secret needs at least 16 characters").max(200).regex(/^[\x21-\x7e]+$/, "Visible ASCII only").nullable().optional()
      .describe("Shared HMAC secret; null removes it."),
    webhookUrl: z.url({ protocol: /^https?$/ }).max(2000).nullable().optional().describe("The platform's order webhook (public address); null removes it."),
  }),
  output: acpSettingsView,
  scope: "keys:write",
  anonymous: false,
  audited: true,
  sensitive: ["signingSecret"],
  annotations: UPDATE,
  examples: [{ id: "demo-api-key-kasse", webhookUrl: "https://agent.example.com/acp/webhooks" }],
  async handler({ id, signingSecret, webhookUrl }, ctx) {
    const row = await findKey(ctx.db, id);
    checkGrant(ctx.caller.scopes, row.scopes, "This key has");
    if (webhookUrl) await checkReceiver(webhookUrl, ctx.config.webhooksAllowLocal);
    const view = (secret: string | null, url: string | null) => ({ id, signingSecretSet: secret !== null, webhookUrl: url });
    const before = view(row.acpSigningSecret, row.acpWebhookUrl);
    const data = {
      ...(signingSecret !== undefined ? { acpSigningSecret: signingSecret } : {}),
      ...(webhookUrl !== undefined ? { acpWebhookUrl: webhookUrl } : {}),
    };
    if (Object.keys(data).length === 0) {
      ctx.unchanged();
      return before;
    }
    const updated = await ctx.db.apiKey.update({ where: { id }, data });
    const after = view(updated.acpSigningSecret, updated.acpWebhookUrl);
    await ctx.audit({ subjectType: "apiKey", subjectId: id, before, after, ...(signingSecret !== undefined ? { note: "ACP signing secret changed" } : {}) });
    return after;
  },
});
