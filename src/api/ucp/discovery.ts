// The business profile at /.well-known/ucp (2026-04-08): services, capabilities and payment handlers of this shop.
import type { Config } from "../../core/config.ts";
import type { PublicJwk } from "../../core/outbox/signing-keys.ts";
import { paymentHandlers } from "../../tools/checkout/service.ts";
import { CART } from "./v2026-04-08-cart.ts";
import { LOOKUP, SEARCH } from "./v2026-04-08-catalog.ts";
import { activeCapabilities, handlerRegistry, VERSION } from "./v2026-04-08.ts";

const SPEC = `https://ucp.dev/${VERSION}/specification`;
const SCHEMAS = `https://ucp.dev/${VERSION}/schemas/shopping`;

/** Capabilities whose spec page and schema are not named after the capability's last part. */
const PAGES: Record<string, { page: string; schema: string }> = {
  [SEARCH]: { page: "catalog/search", schema: "catalog_search" },
  [LOOKUP]: { page: "catalog/lookup", schema: "catalog_lookup" },
};

const EXTENDS_CHECKOUT: Record<string, string> = {
  "dev.ucp.shopping.fulfillment": "fulfillment",
  "dev.ucp.shopping.discount": "discount",
  "dev.ucp.shopping.buyer_consent": "buyer-consent",
};

/** The profile: the shopping service over REST (/ucp) and MCP (/ucp/mcp), and the shop's public signing keys. */
export function discoveryProfile(config: Pick<Config, "publicBaseUrl" | "ucpTestMode">, signingKeys: readonly PublicJwk[] = []) {
  const capabilities: Record<string, Array<Record<string, unknown>>> = {};
  const names = ["dev.ucp.shopping.checkout", "dev.ucp.shopping.order", ...Object.keys(EXTENDS_CHECKOUT), ...Object.keys(PAGES), CART];
  for (const [name, entries] of Object.entries(activeCapabilities(names))) {
    const short = name.split(".").at(-1)!;
    const page = PAGES[name]?.page ?? EXTENDS_CHECKOUT[name] ?? short;
    capabilities[name] = entries.map((entry) => ({
      ...entry,
      spec: `${SPEC}/${page}`,
      schema: `${SCHEMAS}/${PAGES[name]?.schema ?? short}.json`,
      ...(EXTENDS_CHECKOUT[name] ? { extends: "dev.ucp.shopping.checkout" } : {}),
    }));
  }
  return {
    ucp: {
      version: VERSION,
      supported_versions: { "2026-01-11": `${config.publicBaseUrl}/ucp/.well-known/ucp` },
      services: {
        "dev.ucp.shopping": [
          { version: VERSION, spec: `${SPEC}/overview`, transport: "rest", endpoint: `${config.publicBaseUrl}/ucp`, schema: `https://ucp.dev/${VERSION}/services/shopping/rest.openapi.json` },
          { version: VERSION, spec: `${SPEC}/overview`, transport: "mcp", endpoint: `${config.publicBaseUrl}/ucp/mcp`, schema: `https://ucp.dev/${VERSION}/services/shopping/mcp.openrpc.json` },
        ],
      },
      capabilities,
      payment_handlers: handlerRegistry(paymentHandlers(config)),
    },
    signing_keys: signingKeys,
  };
}
