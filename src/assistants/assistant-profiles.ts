// The two assistants as configuration over the registry: whom they act for, which tools they offer, which wait for approval, limits.
import type { AssistantName } from "../tools/chats/store.ts";
import type { Door } from "../tools/context.ts";
import { isScope } from "../tools/scopes.ts";
import type { AnyTool } from "../tools/tool.ts";
import { adminInstructions, storefrontInstructions, type PromptContext } from "./prompts.ts";

export type { AssistantName };
export const ASSISTANTS: readonly AssistantName[] = ["storefront", "admin"];

/**
 * The only tools the storefront assistant may ever offer: the shopper's own catalogue, cart, address and order tools.
 * Never a staff tool and never `*`; the session's scopes are checked on top of this list by the executor.
 */
export const STOREFRONT_TOOLS: readonly string[] = [
  "products.search",
  "products.get",
  "products.compare",
  "products.get_answers",
  "products.list_variants",
  "categories.list",
  "categories.get",
  "settings.get_policies",
  "cart.get_summary",
  "cart.add",
  "cart.update_quantity",
  "cart.remove",
  "cart.clear",
  "cart.set_shipping_address",
  "cart.delivery_options",
  "cart.checkout",
  "discounts.try_apply",
  "address.autocomplete",
  "address.validate",
  "address.lookup_postal_code",
  "user.get_last_shipping",
  "user.list_orders",
  "user.get_order_status",
  "marketing.subscribe",
  "giftcards.get",
  "returns.policy",
  "customer.list_addresses",
  "customer.save_address",
  "customer.delete_address",
  "support.create_ticket",
  "orders.payments",
  "orders.cancel",
  "orders.change_address",
  "orders.change_delivery",
  "orders.item_options",
  "orders.change_items",
  "returns.request",
  "returns.list",
  "returns.get",
];

/**
 * Storefront tools the shopper confirms with a button before they run: placing the order reserves stock, the address
 * book and a hand-off to a person change what the shop keeps about them, and cancelling, re-addressing, changing the
 * delivery or the items (another size or colour) or returning from an order changes the order and its money.
 */
const STOREFRONT_APPROVALS: readonly string[] = [
  "cart.checkout",
  "customer.save_address",
  "customer.delete_address",
  "support.create_ticket",
  "orders.cancel",
  "orders.change_address",
  "orders.change_delivery",
  "orders.change_items",
  "returns.request",
];

export interface Limits {
  /** Model calls per turn (each may call tools). */
  maxSteps: number;
  maxOutputTokensPerStep: number;
  /** Output tokens of all steps of a turn; the loop stops after the step that crosses it. */
  maxOutputTokensPerTurn: number;
  /** Wall time of a whole turn, model and tools. */
  turnTimeoutMs: number;
  /** Longest silence of the model inside a step. */
  chunkTimeoutMs: number;
  toolTimeoutMs: number;
  /** Characters of one user message. */
  maxMessageChars: number;
  /** Stored messages handed to the model (older ones stay in the chat). */
  historyMessages: number;
  /** Characters of JSON of one tool result the model reads (the UI gets it all); longer ones are cut, saying so. */
  maxToolResultChars: number;
}

export const LIMITS: Limits = {
  maxSteps: 8,
  maxOutputTokensPerStep: 1_500,
  maxOutputTokensPerTurn: 4_000,
  turnTimeoutMs: 120_000,
  chunkTimeoutMs: 30_000,
  toolTimeoutMs: 20_000,
  maxMessageChars: 4_000,
  historyMessages: 40,
  maxToolResultChars: 16_000,
};

export interface AssistantProfile {
  name: AssistantName;
  /** The executor door of its tool calls (orders placed through it are stamped channel "chat"). */
  door: Extract<Door, "storefront-assistant" | "admin-assistant">;
  /** The feature flag that switches it on (settings.list_features). */
  feature: string;
  /** Whether the tool may be offered at all; the caller's scopes narrow it further (and the executor checks them again). */
  offers(tool: AnyTool): boolean;
  /** Whether a call waits for the person's approval (AI SDK tool approval) before it runs. */
  needsApproval(tool: AnyTool): boolean;
  instructions(context: PromptContext): string;
  limits: Limits;
}

const storefrontTools = new Set(STOREFRONT_TOOLS);
const storefrontApprovals = new Set(STOREFRONT_APPROVALS);

export const PROFILES: Record<AssistantName, AssistantProfile> = {
  storefront: {
    name: "storefront",
    door: "storefront-assistant",
    feature: "storefront_chat",
    offers: (tool) => storefrontTools.has(tool.name),
    needsApproval: (tool) => storefrontApprovals.has(tool.name),
    instructions: storefrontInstructions,
    limits: LIMITS,
  },
  admin: {
    name: "admin",
    door: "admin-assistant",
    feature: "admin_assistant",
    // Every tool a staff user can be granted; a system scope's tool (a payment provider's events) is its door's alone.
    // A tool with a secret in its input or answer (a password, a new key or webhook secret) stays on the admin pages:
    // the chat is stored, and a secret must not be.
    offers: (tool) => isScope(tool.scope) && !tool.sensitive?.length,
    needsApproval: (tool) => !tool.annotations.readOnlyHint,
    instructions: adminInstructions,
    limits: LIMITS,
  },
};
