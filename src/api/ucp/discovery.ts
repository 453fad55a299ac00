// The business profile at /.well-known/ucp (2026-04-08): services, capabilities and payment handlers of this shop.
import type { Config } from "../../core/config.ts";
import type { PublicJwk } from "../../tools/keys/signing-keys.ts";
import { paymentHandlers } from "../../tools/checkout/sessions.ts";
import { AP2, BUYER_CONSENT, CHECKOUT, CHECKOUT_EXTENSIONS, PAYMENT_AUTHENTICATION, SHOP_CAPABILITIES, SHOP_CAPABILITIES_0825 } from "./capabilities.ts";
import * as v0825 from "./v2026-08-25.ts";
import { LOOKUP, SEARCH } from "./v2026-04-08-catalog.ts";
import { activeCapabilities, handlerRegistry, VERSION } from "./v2026-04-08.ts";

const SPEC = `https://ucp.dev/${VERSION}/specification`;
const SCHEMAS = `https://ucp.dev/${VERSION}/schemas/shopping`;

/** Capabilities whose spec page and schema are not named after the capability's last part. */
const PAGES: Record<string, { page: string; schema: string }> = {
  [SEARCH]: { page: "catalog/search", schema: "catalog_search" },
  [LOOKUP]: { page: "catalog/lookup", schema: "catalog_lookup" },
  [BUYER_CONSENT]: { page: "buyer-consent", schema: "buyer_consent" },
  [AP2]: { page: "ap2-mandates", schema: "ap2_mandate" },
};

/** Where the 2026-08-25 business profile is served (named by the 2026-04-08 profile's supported_versions). */
export const PROFILE_0825 = `/ucp/${v0825.VERSION}/.well-known/ucp`;

/** Capabilities with a config: AP2 names the verifiable presentation format its mandates come in. */
const CONFIGS: Record<string, Record<string, unknown>> = { [AP2]: { vp_formats_supported: { "dc+sd-jwt": {} } } };

/** The profile: the shopping service over REST (/ucp) and MCP (/ucp/mcp), and the shop's public signing keys. */
export function discoveryProfile(config: Pick<Config, "publicBaseUrl" | "ucpTestMode" | "stripeSecretKey" | "stripePublishableKey">, signingKeys: readonly PublicJwk[] = []) {
  const capabilities: Record<string, Array<Record<string, unknown>>> = {};
  for (const [name, entries] of Object.entries(activeCapabilities(SHOP_CAPABILITIES))) {
    const short = name.split(".").at(-1)!;
    capabilities[name] = entries.map((entry) => ({
      ...entry,
      spec: `${SPEC}/${PAGES[name]?.page ?? short}`,
      schema: `${SCHEMAS}/${PAGES[name]?.schema ?? short}.json`,
      ...(name in CHECKOUT_EXTENSIONS ? { extends: CHECKOUT } : {}),
      ...(CONFIGS[name] ? { config: CONFIGS[name] } : {}),
    }));
  }
  return {
    ucp: {
      version: VERSION,
      supported_versions: { "2026-01-11": `${config.publicBaseUrl}/ucp/.well-known/ucp`, [v0825.VERSION]: `${config.publicBaseUrl}${PROFILE_0825}` },
      services: {
        "dev.ucp.shopping": [
          { version: VERSION, spec: `${SPEC}/overview`, transport: "rest", endpoint: `${config.publicBaseUrl}/ucp`, schema: `https://ucp.dev/${VERSION}/services/shopping/rest.openapi.json` },
          { version: VERSION, spec: `${SPEC}/overview`, transport: "mcp", endpoint: `${config.publicBaseUrl}/ucp/mcp`, schema: `https://ucp.dev/${VERSION}/services/shopping/mcp.openrpc.json` },
        ],
      },
      capabilities,
      payment_handlers: handlerRegistry(paymentHandlers(config), config),
    },
    signing_keys: signingKeys,
  };
}

/**
 * The 2026-08-25 business profile: the same services at this version, its capabilities (parcel shops under fulfilment,
 * 3-D Secure under payment authentication; no catalog or cart yet), and the signing keys as the JWK set `keys`.
 */
export function discoveryProfile0825(config: Pick<Config, "publicBaseUrl" | "ucpTestMode" | "stripeSecretKey" | "stripePublishableKey">, signingKeys: readonly PublicJwk[] = []) {
  const version = v0825.VERSION;
  const spec = `https://ucp.dev/${version}/specification`;
  const schemas = `https://ucp.dev/${version}/schemas/shopping`;
  // The spec's pages at this version (docs/specification of the cut): checkout and order moved under shopping/.
  const pages: Record<string, string> = { [CHECKOUT]: "shopping/checkout", "dev.ucp.shopping.order": "shopping/order", [BUYER_CONSENT]: "buyer-consent", [PAYMENT_AUTHENTICATION]: "payment/authentication", [AP2]: "ap2-mandates" };
  const capabilities: Record<string, Array<Record<string, unknown>>> = {};
  for (const name of SHOP_CAPABILITIES_0825) {
    const short = name.split(".").at(-1)!;
    capabilities[name] = [
      {
        version,
        spec: `${spec}/${pages[name] ?? short}`,
        schema: `${schemas}/${short}.json`,
        ...(name !== CHECKOUT && name !== "dev.ucp.shopping.order" ? { extends: CHECKOUT } : {}),
        ...(CONFIGS[name] ? { config: CONFIGS[name] } : {}),
      },
    ];
  }
  const base = config.publicBaseUrl;
  return {
    ucp: {
      version,
      supported_versions: { "2026-04-08": `${base}/.well-known/ucp`, "2026-01-11": `${base}/ucp/.well-known/ucp` },
      services: {
        "dev.ucp.shopping": [
          { version, spec: `${spec}/overview`, transport: "rest", endpoint: `${base}/ucp`, schema: `https://ucp.dev/${version}/services/shopping/rest.openapi.json` },
          { version, spec: `${spec}/overview`, transport: "mcp", endpoint: `${base}/ucp/mcp`, schema: `https://ucp.dev/${version}/services/shopping/mcp.openrpc.json` },
        ],
      },
      capabilities,
      payment_handlers: v0825.handlerRegistry(paymentHandlers(config), config),
    },
    keys: signingKeys,
  };
}
