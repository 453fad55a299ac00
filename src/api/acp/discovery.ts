// GET /.well-known/acp.json: the ACP discovery document (rfc.discovery): protocol and versions, the REST base URL,
// transports and the stable capabilities. No key needed; cacheable for an hour. Payment handlers are per session.
import { z } from "zod";
import type { Config } from "../../core/config.ts";

export const discoveryDocument = z.strictObject({
  protocol: z.strictObject({
    name: z.literal("acp"),
    version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    supported_versions: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).min(1),
    documentation_url: z.url().optional(),
  }),
  api_base_url: z.url(),
  transports: z.array(z.enum(["rest", "mcp"])).min(1),
  capabilities: z.strictObject({
    services: z.array(z.enum(["checkout", "orders", "delegate_payment", "carts"])),
    extensions: z.array(z.strictObject({ name: z.string(), spec: z.url().optional(), schema: z.url().optional() })).optional(),
    intervention_types: z.array(z.enum(["3ds", "biometric", "address_verification"])).optional(),
    supported_currencies: z.array(z.string()).optional(),
    supported_locales: z.array(z.string()).optional(),
  }),
});

/** Versions oldest first; the last is the latest. */
export function discovery(config: Pick<Config, "publicBaseUrl">, versions: readonly string[]): z.infer<typeof discoveryDocument> {
  const sorted = [...versions].sort();
  return {
    protocol: { name: "acp", version: sorted.at(-1)!, supported_versions: sorted },
    api_base_url: `${config.publicBaseUrl}/acp`,
    transports: ["rest", "mcp"],
    capabilities: {
      services: ["checkout"],
      extensions: [{ name: "discount" }],
      supported_currencies: ["dkk"],
      supported_locales: ["da-DK", "en"],
    },
  };
}
