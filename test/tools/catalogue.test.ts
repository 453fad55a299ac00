// The registry against CATALOGUE.md: its 87 tools with scopes and flags, the tools added since, and registry guards.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { describeTool } from "../../src/tools/describe.ts";
import { createRegistry, Registry, wireName } from "../../src/tools/registry.ts";
import { defineTool, READ, type AnyTool } from "../../src/tools/tool.ts";

/** [name, scope, anonymous, audited] — copied from CATALOGUE.md. */
const CATALOGUE: Array<[string, string, boolean, boolean]> = [
  ["products.search", "catalog:read", true, false],
  ["products.get", "catalog:read", true, false],
  ["products.create", "products:write", false, true],
  ["products.update", "products:write", false, true],
  ["products.delete", "products:write", false, true],
  ["products.attach_image", "products:write", false, true],
  ["products.detach_image", "products:write", false, true],
  ["products.list_variants", "catalog:read", false, false],
  ["products.upsert_variant", "products:write", false, true],
  ["products.delete_variant", "products:write", false, true],
  ["products.adjust_stock", "products:write", false, true],
  ["products.bulk_update_prices", "products:write", false, true],
  ["products.get_answers", "catalog:read", false, false],
  ["products.compare", "catalog:read", false, false],
  ["products.list_low_stock", "catalog:read", false, false],
  ["services.create", "pages:write", false, true],
  ["services.update", "pages:write", false, true],
  ["services.list", "pages:read", false, false],
  ["services.get", "pages:read", false, false],
  ["services.delete", "pages:write", false, true],
  ["categories.list", "catalog:read", true, false],
  ["categories.upsert", "categories:write", false, true],
  ["categories.delete", "categories:write", false, true],
  ["categories.get", "catalog:read", false, false],
  ["orders.list", "orders:read", false, false],
  ["orders.get", "orders:read", false, false],
  ["orders.update_status", "orders:write", false, true],
  ["orders.create", "orders:write", false, true],
  ["orders.refund", "orders:write", false, true],
  ["orders.cancel", "orders:write", false, true],
  ["orders.set_tracking", "orders:write", false, true],
  ["orders.add_note", "orders:write", false, true],
  ["orders.get_timeline", "orders:read", false, false],
  ["orders.resend_confirmation", "orders:write", false, true],
  ["discounts.list", "discounts:read", false, false],
  ["discounts.create", "discounts:write", false, true],
  ["discounts.toggle", "discounts:write", false, true],
  ["discounts.try_apply", "cart:write", false, true],
  ["discounts.get", "discounts:read", false, false],
  ["discounts.update", "discounts:write", false, true],
  ["discounts.delete", "discounts:write", false, true],
  ["pages.list", "pages:read", false, false],
  ["pages.upsert", "pages:write", false, true],
  ["pages.delete", "pages:write", false, true],
  ["pages.get_layout", "pages:read", false, false],
  ["pages.get", "pages:read", false, false],
  ["pages.set_layout", "pages:write", false, true],
  ["settings.get", "settings:read", false, false],
  ["settings.update_branding", "settings:write", false, true],
  ["settings.update_shipping", "settings:write", false, true],
  ["settings.update_contact", "settings:write", false, true],
  ["settings.update_policies", "settings:write", false, true],
  ["settings.get_policies", "catalog:read", false, false],
  ["settings.list_features", "features:read", false, false],
  ["settings.set_feature", "features:write", false, true],
  ["analytics.summary", "analytics:read", false, false],
  ["analytics.sales_timeseries", "analytics:read", false, false],
  ["analytics.top_products", "analytics:read", false, false],
  ["analytics.channel_breakdown", "analytics:read", false, false],
  ["analytics.abandoned_carts", "analytics:read", false, false],
  ["marketing.create_campaign", "marketing:write", false, true],
  ["marketing.list_campaigns", "marketing:write", false, false],
  ["marketing.update_campaign", "marketing:write", false, true],
  ["marketing.schedule_campaign", "marketing:write", false, true],
  ["marketing.list_subscribers", "marketing:write", false, false],
  ["marketing.subscribe", "cart:write", false, true],
  ["audit.list", "audit:read", false, false],
  ["audit.revert", "audit:revert", false, true],
  ["audit.get", "audit:read", false, false],
  ["images.search_stock_photos", "products:write", false, false],
  ["address.autocomplete", "catalog:read", false, false],
  ["address.validate", "catalog:read", false, false],
  ["address.lookup_postal_code", "catalog:read", false, false],
  ["cart.add", "cart:write", false, false],
  ["cart.update_quantity", "cart:write", false, false],
  ["cart.remove", "cart:write", false, false],
  ["cart.get_summary", "cart:write", false, false],
  ["cart.clear", "cart:write", false, false],
  ["cart.set_shipping_address", "cart:write", false, false],
  ["cart.checkout", "cart:write", false, true],
  ["customer.lookup_by_email", "customer:read", false, false],
  ["customer.lookup_by_phone", "customer:read", false, false],
  ["customer.list", "customer:read", false, false],
  ["customer.get_orders", "customer:read", false, false],
  ["user.get_last_shipping", "customer:read", false, false],
  ["user.list_orders", "customer:read", false, false],
  ["user.get_order_status", "customer:read", false, false],
];

/** Tools added after CATALOGUE.md (additive within v1), with the same columns. */
const ADDED: Array<[string, string, boolean, boolean]> = [
  ["products.import", "products:write", false, true],
  ["user.request_login_code", "cart:write", false, false],
  ["user.verify_login_code", "cart:write", false, false],
  ["user.sign_out", "cart:write", false, false],
  ["keys.create", "keys:write", false, true],
  ["keys.list", "keys:read", false, false],
  ["keys.revoke", "keys:write", false, true],
  ["keys.set_acp", "keys:write", false, true],
  ["keys.set_scopes", "keys:write", false, true],
  ["staff.create", "staff:write", false, true],
  ["staff.delete", "staff:write", false, true],
  ["staff.list", "staff:read", false, false],
  ["staff.reset_password", "staff:write", false, true],
  ["staff.request_password_reset", "staff:write", true, false],
  ["staff.set_password", "staff:write", true, true],
  ["staff.set_scopes", "staff:write", false, true],
  ["cart.get_shipping_progress", "cart:write", false, false],
  ["discounts.list_status", "discounts:read", false, false],
  ["orders.get_payment", "orders:read", false, false],
  ["checkout.create", "checkout:agent", true, true],
  ["checkout.get", "checkout:agent", true, false],
  ["checkout.update", "checkout:agent", true, true],
  ["checkout.complete", "checkout:agent", true, true],
  ["checkout.cancel", "checkout:agent", true, true],
  ["checkout.get_order", "checkout:agent", true, false],
  ["orders.apply_payment_event", "payments:write", false, true],
  ["orders.record_events", "orders:write", false, true],
  ["webhooks.create", "webhooks:write", false, true],
  ["webhooks.list", "webhooks:read", false, false],
  ["webhooks.delete", "webhooks:write", false, true],
  ["webhooks.test", "webhooks:write", false, true],
  ["webhooks.deliveries", "webhooks:read", false, false],
  ["webhooks.resend", "webhooks:write", false, true],
  ["webhooks.enable", "webhooks:write", false, true],
  ["orders.payments", "orders:read", false, false],
  ["orders.get_balance", "orders:read", false, false],
  ["orders.change_address", "orders:write", false, true],
  ["orders.change_items", "orders:write", false, true],
  ["orders.change_payment", "orders:write", false, true],
  ["orders.record_payment", "orders:write", false, true],
  ["orders.item_options", "orders:read", false, false],
  ["giftcards.issue", "giftcards:write", false, true],
  ["giftcards.get", "giftcards:read", true, false],
  ["giftcards.redeem", "giftcards:write", false, true],
  ["giftcards.list", "giftcards:read", false, false],
  ["orders.list_refund_tasks", "orders:read", false, false],
  ["orders.complete_refund_task", "orders:write", false, true],
  ["analytics.cancel_reasons", "analytics:read", false, false],
  ["customer.list_addresses", "customer:read", false, false],
  ["customer.save_address", "customer:write", false, true],
  ["customer.delete_address", "customer:write", false, true],
  ["support.create_ticket", "support:write", true, true],
  ["support.list_tickets", "support:read", false, false],
  ["support.get_ticket", "support:read", false, false],
  ["support.reply", "support:write", false, true],
  ["support.close", "support:write", false, true],
  ["orders.get_by_number", "orders:read", false, false],
  ["orders.get_number", "orders:read", false, false],
  ["returns.request", "returns:write", false, true],
  ["returns.list", "returns:read", false, false],
  ["returns.get", "returns:read", false, false],
  ["returns.approve", "returns:write", false, true],
  ["returns.reject", "returns:write", false, true],
  ["returns.receive", "returns:write", false, true],
  ["returns.release_exchange", "returns:write", false, true],
  ["returns.policy", "catalog:read", true, false],
  ["returns.withdraw", "returns:write", true, false],
  ["products.set_safety", "products:write", false, true],
  ["products.get_safety", "catalog:read", true, false],
  ["cart.delivery_options", "cart:write", false, false],
  ["orders.get_delivery", "orders:read", false, false],
  ["images.upload", "products:write", false, true],
  ["products.lookup", "catalog:read", true, false],
  ["settings.get_commerce", "settings:read", false, false],
  ["settings.update_commerce", "settings:write", false, true],
  ["settings.update_shipping_rates", "settings:write", false, true],
  ["settings.get_sale_terms", "settings:read", false, false],
  ["settings.update_sale_terms", "settings:write", false, true],
  ["orders.change_delivery", "orders:write", false, true],
];

const registry = createRegistry();

describe("the registry", () => {
  it("holds the catalogue's 87 tools and the added ones, with their scopes, anonymous and audited flags", () => {
    const actual = registry.tools.map((t) => [t.name, t.scope, t.anonymous, t.audited]);
    expect(CATALOGUE).toHaveLength(87);
    for (const row of [...CATALOGUE, ...ADDED]) expect(actual, row[0]).toContainEqual(row);
    expect(actual.length).toBeGreaterThanOrEqual(87);
  });

  it("holds nothing else than the catalogue and the tools added since", () => {
    const actual = registry.tools.map((t) => [t.name, t.scope, t.anonymous, t.audited]);
    expect(actual).toEqual([...CATALOGUE, ...ADDED].sort((a, b) => a[0].localeCompare(b[0])));
  });

  it("gives every tool a description, described input fields, examples valid under its input schema, and a test file", () => {
    for (const tool of registry.tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(30);
      const properties = (describeTool(tool).inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      expect(Object.keys(properties).sort(), tool.name).toEqual(Object.keys(tool.input.shape).sort());
      for (const [field, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${field} needs .describe()`).toBeTruthy();
      }
      expect(tool.examples.length, `${tool.name} examples`).toBeGreaterThan(0);
      for (const example of tool.examples) expect(tool.input.safeParse(example).success, `${tool.name} example`).toBe(true);
      const [area, action] = tool.name.split(".");
      expect(fs.existsSync(path.resolve(`test/tools/${area}/${action}.test.ts`)), `test/tools/${area}/${action}.test.ts`).toBe(true);
      expect(fs.existsSync(path.resolve(`src/tools/${area}/${action}.ts`)), `src/tools/${area}/${action}.ts`).toBe(true);
    }
  });

  it("derives LLM-safe wire names and maps them back", () => {
    expect(wireName("products.attach_image")).toBe("products_attach_image");
    expect(registry.get("products_search")?.name).toBe("products.search");
  });

  it("refuses a duplicate name, a missing or unknown scope, a bad name and a non-object input at start-up", () => {
    const base = defineTool({
      name: "test.tool",
      description: "A tool used only to test the registry's start-up checks.",
      input: z.strictObject({}),
      output: z.strictObject({}),
      scope: "catalog:read",
      anonymous: false,
      audited: false,
      annotations: READ,
      examples: [{}],
      handler: async () => ({}),
    }) as AnyTool;
    expect(() => new Registry([base, base])).toThrow(/twice/);
    expect(() => new Registry([{ ...base, scope: "" as never }])).toThrow(/no scope/);
    expect(() => new Registry([{ ...base, scope: "everything:write" as never }])).toThrow(/unknown scope/);
    expect(() => new Registry([{ ...base, name: "Bad Name" }])).toThrow(/<area>.<action>/);
    expect(() => new Registry([{ ...base, input: z.string() as never }])).toThrow(/object schema/);
  });
});
