// The one list of tools: every door, the catalogue endpoint and the OpenAPI document are generated from it.
import { z } from "zod";
import type { AnyTool } from "./tool.ts";
import { isToolScope } from "./scopes.ts";
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

const NAME = /^[a-z]+\.[a-z_]+$/;

export class Registry {
  readonly tools: readonly AnyTool[];
  private readonly byName = new Map<string, AnyTool>();
  private readonly byWireName = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (!NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" is not <area>.<action>.`);
      if (this.byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
      if (!tool.scope) throw new Error(`Tool "${tool.name}" has no scope.`);
      if (!isToolScope(tool.scope)) throw new Error(`Tool "${tool.name}" names an unknown scope "${tool.scope}".`);
      if (!(tool.input instanceof z.ZodObject)) throw new Error(`Tool "${tool.name}" input is not an object schema.`);
      this.byName.set(tool.name, tool);
      this.byWireName.set(wireName(tool.name), tool);
    }
    this.tools = [...tools].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name) ?? this.byWireName.get(name);
  }
}

/** The LLM-safe function name (OpenAI function names allow no dots): products.attach_image → products_attach_image. */
export function wireName(name: string): string {
  return name.replace(".", "_");
}

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
];

export function createRegistry(tools: readonly AnyTool[] = ALL_TOOLS): Registry {
  return new Registry(tools);
}
