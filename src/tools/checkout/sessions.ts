// Checkout sessions: who owns one, resolving items, pricing a session into its view (status and messages included),
// loading it for a change, and storing it. Prices always come from the catalogue through the one pricing function.
import crypto from "node:crypto";
import type { Config } from "../../core/config.ts";
import type { Db } from "../../core/db.ts";
import { NotFound, Refused } from "../../core/errors.ts";
import { toJson } from "../../core/json.ts";
import type { CheckoutSession, Prisma } from "../../generated/prisma/client.ts";
import { validateAddress } from "../address/postal-codes.ts";
import type { ToolContext } from "../context.ts";
import { priceLines, shippingSettings } from "../orders/pricing.ts";
import { getCommerce, getPromotions, getShippingRates } from "../settings/commerce.ts";
import { getFreeShippingFrom } from "../settings/sale-terms.ts";
import { rateOptions } from "./shipping-options.ts";
import { methodOf, optionForPoint, pickupOptions, pickupPointsOffered, pickupProblem } from "./pickup.ts";
import { offeredDestinations } from "./destinations.ts";
import { FINAL_STATUSES, type Buyer, type CheckoutStatus, type Message, type SessionView, type StoredFulfillment } from "./schemas.ts";

/** A session lives six hours from its creation (UCP's default) unless completed or canceled before. */
export const SESSION_TTL_MS = 6 * 60 * 60 * 1000;

export interface StoredLine {
  id: string;
  itemId: string;
  productId: string;
  variantId: string | null;
  quantity: number;
}


interface StoredPayment {
  handlerId: string;
  instrumentType: string | null;
  brand?: string;
  lastDigits?: string;
}

/** The caller a session belongs to: its API key, its storefront session, the agent's profile URL, or nobody in particular. */
export function ownerOf(ctx: ToolContext): string {
  const { caller } = ctx;
  if (caller.kind === "key" && caller.keyId) return `key:${caller.keyId}`;
  if (caller.session?.persistent) return `session:${caller.session.id}`;
  if (caller.agentProfile) return `agent:${caller.agentProfile}`;
  return caller.kind === "system" || caller.kind === "staff" ? caller.actor : "anonymous";
}

export function newSessionId(): string {
  return `chk_${crypto.randomBytes(16).toString("hex")}`;
}

/** The shop's currency: the "commerce" setting when one is stored, else DKK. */
export async function shopCurrency(db: Db): Promise<string> {
  return (await getCommerce(db)).currency;
}

/** Handlers that exist only in test mode and decide by the credential's token (the UCP samples name all three). */
const TEST_HANDLERS: readonly string[] = ["mock_payment_handler", "google_pay", "shop_pay"];

/**
 * The payment handlers a session may complete with: the test handlers only in test mode, the Stripe handler (a card
 * the agent tokenised with the shop's publishable key, or a shared payment token) when both Stripe keys are set, Stripe
 * shared payment tokens alone (ACP's delegated payment) when the secret key is, and the payment link.
 */
export function paymentHandlers(config: Pick<Config, "ucpTestMode"> & Partial<Pick<Config, "stripeSecretKey" | "stripePublishableKey">>): string[] {
  return [
    ...(config.ucpTestMode ? TEST_HANDLERS : []),
    ...(config.stripeSecretKey && config.stripePublishableKey ? [STRIPE_HANDLER] : []),
    ...(config.stripeSecretKey ? [STRIPE_SPT_HANDLER] : []),
    "payment_link",
  ];
}

/** The handler id of Stripe tokens: a PaymentMethod (pm_…) or a shared payment token (spt_…). */
export const STRIPE_HANDLER = "stripe";
/** The handler id of Stripe shared payment tokens. */
export const STRIPE_SPT_HANDLER = "stripe_spt";

/** Resolves item ids (a variant's id, or a product's when it has no variants) into lines; 422 item_unavailable otherwise. */
export async function resolveLines(db: Db, wanted: Array<{ itemId: string; quantity: number }>, previous: StoredLine[] = []): Promise<StoredLine[]> {
  const ids = [...new Set(wanted.map((line) => line.itemId))];
  const [variants, products] = await Promise.all([
    db.productVariant.findMany({ where: { id: { in: ids }, product: { deletedAt: null, draft: false } } }),
    db.product.findMany({ where: { id: { in: ids }, deletedAt: null, draft: false }, include: { _count: { select: { variants: true } } } }),
  ]);
  const lines: StoredLine[] = [];
  let next = previous.reduce((max, line) => Math.max(max, Number(line.id.slice(3)) || 0), 0);
  for (const [index, { itemId, quantity }] of wanted.entries()) {
    const variant = variants.find((row) => row.id === itemId);
    const product = products.find((row) => row.id === itemId);
    if (product && product._count.variants > 0) {
      throw new Refused("variant_required", `lines[${index}]: the product ${product.name} comes in variants; give the id of one of its variants.`);
    }
    if (!variant && !product) throw new Refused("item_unavailable", `lines[${index}]: product or variant "${itemId}" not found (or not for sale).`);
    const productId = variant ? variant.productId : itemId;
    const variantId = variant ? variant.id : null;
    const same = lines.find((line) => line.productId === productId && line.variantId === variantId);
    if (same) {
      same.quantity += quantity;
      continue;
    }
    const kept = previous.find((line) => line.itemId === itemId);
    lines.push({ id: kept?.id ?? `li_${++next}`, itemId, productId, variantId, quantity });
  }
  return lines;
}

export interface SessionState {
  id: string;
  status: CheckoutStatus;
  currency: string;
  lines: StoredLine[];
  buyer: Buyer | null;
  fulfillment: StoredFulfillment;
  discountCodes: string[];
  payment: StoredPayment | null;
  orderId: string | null;
  protocol: SessionView["protocol"];
  protocolVersion: string | null;
  agentName: string | null;
  agentProfile: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export function stateOf(row: CheckoutSession): SessionState {
  return {
    id: row.id,
    status: row.status as CheckoutStatus,
    currency: row.currency,
    lines: row.lines as unknown as StoredLine[],
    buyer: (row.buyer as Buyer | null) ?? null,
    fulfillment: (row.fulfillment as unknown as StoredFulfillment | null) ?? { destination: null, selectedOptionId: null },
    discountCodes: row.discountCodes as unknown as string[],
    payment: (row.payment as unknown as StoredPayment | null) ?? null,
    orderId: row.orderId,
    protocol: row.protocol as SessionView["protocol"],
    protocolVersion: row.protocolVersion,
    agentName: row.agentName,
    agentProfile: row.agentProfile,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Prices the session against the catalogue and works out its status and messages (final sessions keep theirs). */
export async function priceSession(ctx: ToolContext, state: SessionState): Promise<SessionView> {
  const now = ctx.now();
  const [commerce, rates, promotions, settings, own] = await Promise.all([getCommerce(ctx.db), getShippingRates(ctx.db), getPromotions(ctx.db), shippingSettings(ctx.db), getFreeShippingFrom(ctx.db)]);
  // With shipping rates the destination's country decides the options and shipping costs only what the chosen one does.
  const rated = rates.length > 0;
  let pricing = await priceLines(ctx.db, state.lines, state.discountCodes, now, rated ? { shippingDkk: 0 } : {});
  const messages: Message[] = [];
  const error = (code: string, content: string, path: string, severity: Message["severity"] = "recoverable") =>
    messages.push({ type: "error", code, content, path, severity });
  const lines: SessionView["lines"] = [];
  for (const [index, line] of state.lines.entries()) {
    const priced = pricing.lines.find((candidate) => candidate.productId === line.productId && candidate.variantId === line.variantId);
    if (!priced) {
      error("item_unavailable", `Item ${line.itemId} is no longer for sale; remove it.`, `lines[${index}]`);
      continue;
    }
    const title = priced.variantSku ? `${priced.productName} (${priced.variantSku})` : priced.productName;
    if (priced.stock < line.quantity) error("out_of_stock", `Only ${Math.max(0, priced.stock)} of ${title} in stock.`, `lines[${index}].quantity`);
    lines.push({
      id: line.id,
      itemId: line.itemId,
      productId: line.productId,
      variantId: line.variantId,
      title,
      unitPrice: priced.unitPriceDkk,
      quantity: line.quantity,
      subtotal: priced.lineTotalDkk,
    });
  }
  if (state.lines.length === 0) error("missing", "Add at least one line.", "lines");
  for (const code of state.discountCodes) {
    if (!pricing.applied.some((entry) => entry.code === code.toUpperCase())) {
      messages.push({ type: "warning", code: "discount_code_not_applied", content: `The code ${code} does not apply and was ignored.`, path: "discounts.codes", severity: null });
    }
  }
  const { destination } = state.fulfillment;
  const fullAddress = commerce.checkoutNeeds === "full_address";
  // A pickup option goes to a parcel shop: the buyer's own address is not needed then (checked when given).
  const pickup = state.fulfillment.pickup === true;
  // A parcel shop chosen without an option picks the pickup option of its carrier.
  const chosen = state.fulfillment.selectedOptionId ?? (pickup ? optionForPoint(settings, state.fulfillment.pickupPointId ?? null) : null);
  const toParcelShop = pickup && methodOf(settings, chosen) !== undefined;
  if (fullAddress && !state.buyer?.email) error("missing", "The buyer's e-mail is needed for the order.", "buyer.email");
  if (!destination) {
    if (!toParcelShop) error("missing", "Fulfillment address and option must be selected before completion: a shipping destination is needed.", "fulfillment.destination");
  } else if (fullAddress && (!destination.street || !destination.postalCode || !destination.city)) {
    error("missing", "The shipping destination needs a street, a postal code and a city.", "fulfillment.destination");
  } else if (destination.country === "DK" && destination.street && destination.postalCode && destination.city) {
    const check = validateAddress({ address: destination.street, zip: destination.postalCode, city: destination.city });
    if (!check.valid) error("invalid_address", check.problems.join(" "), "fulfillment.destination");
  }
  let options: SessionView["fulfillment"]["options"];
  let selected: SessionView["fulfillment"]["options"][number] | undefined;
  if (rated) {
    options = destination ? rateOptions(rates, promotions, destination.country, pricing.subtotalDkk, state.lines.map((line) => line.productId)) : [];
    // The parcel shops beside the rates (whatever the address: the buyer may be elsewhere), each priced as the storefront
    // prices its method.
    if (pickup) options.push(...pickupOptions(settings, own, pricing.subtotalDkk - pricing.discountDkk, state.lines.length > 0));
    selected = chosen === null ? undefined : options.find((option) => option.id === chosen);
    if (destination && chosen === null) error("missing", "Fulfillment address and option must be selected before completion: choose a shipping option.", "fulfillment.selectedOptionId");
    if (selected && methodOf(settings, selected.id)) {
      const problem = pickupProblem(settings, selected.id, state.fulfillment);
      if (problem) messages.push(problem);
    }
    if (selected && selected.amount > 0) pricing = await priceLines(ctx.db, state.lines, state.discountCodes, now, { shippingDkk: selected.amount });
  } else {
    const carriers = settings.carriers.length ? settings.carriers : [{ name: "Standard", minDays: 1, maxDays: 5 }];
    options = carriers.map((carrier) => ({
      id: `ship_${carrier.name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`,
      title: carrier.name,
      description: `Delivery in ${carrier.minDays}–${carrier.maxDays} business days.`,
      amount: pricing.shippingDkk,
    }));
    if (pickup) options.push(...pickupOptions(settings, own, pricing.subtotalDkk - pricing.discountDkk, state.lines.length > 0));
    // Every home option costs the shop's flat rate, so the first is chosen until the buyer picks another.
    selected = chosen === null ? options[0] : options.find((option) => option.id === chosen);
    if (selected && methodOf(settings, selected.id)) {
      const problem = pickupProblem(settings, selected.id, state.fulfillment);
      if (problem) messages.push(problem);
      pricing = await priceLines(ctx.db, state.lines, state.discountCodes, now, { shippingDkk: selected.amount });
    }
  }
  if (chosen !== null && !selected) error("invalid", `There is no shipping option "${chosen}"; choose one of fulfillment.options.`, "fulfillment.selectedOptionId");
  const totals: SessionView["totals"] = [{ type: "subtotal", label: "Subtotal", amount: pricing.subtotalDkk }];
  if (pricing.discountDkk > 0) totals.push({ type: "discount", label: "Discount", amount: -pricing.discountDkk });
  totals.push({ type: "fulfillment", label: "Shipping", amount: pricing.shippingDkk });
  if (commerce.pricesIncludeVat) totals.push({ type: "tax", label: "VAT included (25 %)", amount: pricing.vatOere });
  totals.push({ type: "total", label: "Total", amount: pricing.totalDkk });
  const expired = state.expiresAt <= now;
  let status: CheckoutStatus = state.status;
  if (!FINAL_STATUSES.has(status)) {
    if (expired) status = "canceled";
    else status = messages.some((message) => message.type === "error") ? "incomplete" : "ready_for_complete";
  }
  return {
    id: state.id,
    status,
    currency: state.currency,
    lines,
    buyer: state.buyer,
    fulfillment: {
      destination,
      saved: await offeredDestinations(ctx, state.buyer, state.fulfillment),
      options,
      selectedOptionId: selected?.id ?? null,
      ...(pickup
        ? {
            pickupPoints: pickupPointsOffered(settings, options, destination?.postalCode ?? null, state.fulfillment.pickupPointId ?? null),
            pickupPointId: state.fulfillment.pickupPointId ?? null,
          }
        : {}),
    },
    discounts: {
      codes: state.discountCodes,
      applied: pricing.applied.map((entry) => ({
        code: entry.code,
        title: entry.type === "percent" ? `${entry.code}: ${entry.value} % off` : `${entry.code}: fixed amount off`,
        amount: entry.discountDkk,
      })),
    },
    totals,
    messages: FINAL_STATUSES.has(status) ? [] : messages,
    payment: { handlers: paymentHandlers(ctx.config), selected: state.payment },
    orderId: state.orderId,
    protocol: state.protocol,
    protocolVersion: state.protocolVersion,
    agent: { name: state.agentName, profile: state.agentProfile },
    expiresAt: state.expiresAt.toISOString(),
    createdAt: state.createdAt.toISOString(),
    updatedAt: state.updatedAt.toISOString(),
  };
}

/** The caller's session (404 for anyone else's, so ids of others' sessions reveal nothing); `lock` takes its row lock. */
export async function loadSession(ctx: ToolContext, id: string, lock = false): Promise<CheckoutSession> {
  if (lock) await ctx.db.$executeRaw`SELECT id FROM "CheckoutSession" WHERE id = ${id} FOR UPDATE`;
  const row = await ctx.db.checkoutSession.findUnique({ where: { id } });
  if (!row || (row.owner !== ownerOf(ctx) && ctx.caller.checkoutGrant !== row.id)) throw new NotFound(`There is no checkout session "${id}".`);
  return row;
}

/** Refuses (422 checkout_not_modifiable) any change to a completed, canceled or expired session. */
export function assertModifiable(ctx: ToolContext, row: CheckoutSession): void {
  if (FINAL_STATUSES.has(row.status)) {
    throw new Refused("checkout_not_modifiable", `Checkout session ${row.id} is ${row.status}; it can no longer be changed. Start a new one.`);
  }
  if (row.expiresAt <= ctx.now()) throw new Refused("checkout_not_modifiable", `Checkout session ${row.id} expired at ${row.expiresAt.toISOString()}; start a new one.`);
}

/** The columns that store a state and its view. */
export function columns(state: SessionState, view: SessionView) {
  const json = (value: unknown) => toJson(value) as Prisma.InputJsonValue;
  return {
    status: view.status,
    lines: json(state.lines),
    buyer: state.buyer ? json(state.buyer) : undefined,
    fulfillment: json(state.fulfillment),
    discountCodes: json(state.discountCodes),
    payment: state.payment ? json(state.payment) : undefined,
    view: json(view),
  };
}

/** The stored view of a session (what checkout.get answers), with the status an expiry has since made it. */
export function storedView(row: CheckoutSession, now: Date): SessionView {
  const view = row.view as unknown as SessionView;
  if (!FINAL_STATUSES.has(view.status) && row.expiresAt <= now) return { ...view, status: "canceled", messages: [] };
  return view;
}
