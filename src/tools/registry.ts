// The one list of tools: every door, the catalogue endpoint and the OpenAPI document are generated from it.
import type { AnyTool } from "./tool.ts";
import { Registry } from "./tool-registry.ts";
import address from "./address/index.ts";
import analytics from "./analytics/index.ts";
import audit from "./audit/index.ts";
import cart from "./cart/index.ts";
import categories from "./categories/index.ts";
import checkout from "./checkout/index.ts";
import customer from "./customer/index.ts";
import discounts from "./discounts/index.ts";
import giftcards from "./giftcards/index.ts";
import images from "./images/index.ts";
import keys from "./keys/index.ts";
import marketing from "./marketing/index.ts";
import orders from "./orders/index.ts";
import pages from "./pages/index.ts";
import products from "./products/index.ts";
import returns from "./returns/index.ts";
import services from "./services/index.ts";
import settings from "./settings/index.ts";
import staff from "./staff/index.ts";
import support from "./support/index.ts";
import user from "./user/index.ts";
import webhooks from "./webhooks/index.ts";
import importUcpSamples from "./import/ucp_samples.ts";

export { Registry, wireName } from "./tool-registry.ts";

export const ALL_TOOLS: readonly AnyTool[] = [
  ...products,
  ...categories,
  ...services,
  ...pages,
  ...discounts,
  ...settings,
  ...audit,
  ...marketing,
  ...analytics,
  ...images,
  ...orders,
  ...giftcards,
  ...returns,
  ...cart,
  ...checkout,
  ...customer,
  ...user,
  ...address,
  ...keys,
  ...staff,
  ...support,
  ...webhooks,
  importUcpSamples,
];

export function createRegistry(tools: readonly AnyTool[] = ALL_TOOLS): Registry {
  return new Registry(tools);
}
