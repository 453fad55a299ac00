// The session cart: loading and changing it (Cart/CartItem rows for a cookie session, memory only for the empty
// throw-away session an API-key-only call gets), resolving products and variants, and the one cart summary.
import crypto from "node:crypto";
import type { Db } from "../../core/db.ts";
import { NotFound, Refused } from "../../core/errors.ts";
import type { Product, ProductVariant } from "../../generated/prisma/client.ts";
import type { SessionRef, ToolContext } from "../context.ts";
import { priceLines, type LineRef } from "../orders/pricing.ts";
import type { CartSummary, ShippingAddress } from "./schemas.ts";

const MAX_LINE_QUANTITY = 100;

export interface CartLineState extends LineRef {
  lineId: string;
}

export interface CartState {
  cartId: string | null;
  lines: CartLineState[];
  discountCode: string | null;
  shipping: ShippingAddress | null;
}

/** The caller's storefront session, or an empty throw-away one (API key without a session cookie). */
export function sessionOf(ctx: ToolContext): SessionRef {
  return ctx.caller.session ?? { id: `throwaway:${ctx.requestId}`, customerId: null, persistent: false };
}

/**
 * One cart for the length of a tool call. For a persistent session every change is written at once (the cart row
 * is locked by the opening upsert, so concurrent calls on one session serialise); for a throw-away session the
 * changes live in memory only and vanish when the call ends.
 */
export class CartStore {
  private readonly db: Db;
  readonly persistent: boolean;
  readonly state: CartState;

  private constructor(db: Db, persistent: boolean, state: CartState) {
    this.db = db;
    this.persistent = persistent;
    this.state = state;
  }

  /** Loads the cart; `forWrite` creates (and locks) the row of a persistent session. */
  static async open(ctx: ToolContext, forWrite: boolean): Promise<CartStore> {
    const session = sessionOf(ctx);
    const empty: CartState = { cartId: null, lines: [], discountCode: null, shipping: null };
    if (!session.persistent) return new CartStore(ctx.db, false, empty);
    const cart = forWrite
      ? await ctx.db.cart.upsert({ where: { sessionId: session.id }, create: { sessionId: session.id }, update: { updatedAt: ctx.now() } })
      : await ctx.db.cart.findUnique({ where: { sessionId: session.id } });
    if (!cart) return new CartStore(ctx.db, true, empty);
    const items = await ctx.db.cartItem.findMany({ where: { cartId: cart.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return new CartStore(ctx.db, true, {
      cartId: cart.id,
      lines: items.map((item) => ({ lineId: item.id, productId: item.productId, variantId: item.variantId, quantity: item.quantity })),
      discountCode: cart.discountCode,
      shipping: (cart.shipping as ShippingAddress | null) ?? null,
    });
  }

  line(lineId: string): CartLineState {
    const line = this.state.lines.find((candidate) => candidate.lineId === lineId);
    if (!line) throw new NotFound(`There is no line "${lineId}" in the cart; cart.get_summary lists the lines.`);
    return line;
  }

  find(productId: string, variantId: string | null): CartLineState | undefined {
    return this.state.lines.find((line) => line.productId === productId && line.variantId === variantId);
  }

  /** Sets the quantity of the line for this product/variant, creating it when new; 0 removes it. */
  async setUnits(productId: string, variantId: string | null, quantity: number): Promise<void> {
    const existing = this.find(productId, variantId);
    if (existing) return this.setQuantity(existing.lineId, quantity);
    if (quantity === 0) return;
    let lineId: string = crypto.randomUUID();
    if (this.persistent && this.state.cartId) {
      const lineKey = `${productId}:${variantId ?? ""}`;
      const row = await this.db.cartItem.create({ data: { cartId: this.state.cartId, lineKey, productId, variantId, quantity } });
      lineId = row.id;
      await this.converted(null);
    }
    this.state.lines.push({ lineId, productId, variantId, quantity });
  }

  async setQuantity(lineId: string, quantity: number): Promise<void> {
    const line = this.line(lineId);
    if (quantity === 0) return this.remove(lineId);
    if (this.persistent) await this.db.cartItem.update({ where: { id: lineId }, data: { quantity } });
    line.quantity = quantity;
  }

  async remove(lineId: string): Promise<void> {
    this.line(lineId);
    if (this.persistent) await this.db.cartItem.delete({ where: { id: lineId } });
    this.state.lines = this.state.lines.filter((line) => line.lineId !== lineId);
  }

  /** Removes every line and the discount code; the shipping address stays for the next order. */
  async clear(orderId: string | null = null): Promise<void> {
    if (this.persistent && this.state.cartId) {
      await this.db.cartItem.deleteMany({ where: { cartId: this.state.cartId } });
      await this.db.cart.update({ where: { id: this.state.cartId }, data: { discountCode: null, orderId } });
    }
    this.state.lines = [];
    this.state.discountCode = null;
  }

  async setDiscount(code: string | null): Promise<void> {
    if (this.persistent && this.state.cartId) await this.db.cart.update({ where: { id: this.state.cartId }, data: { discountCode: code } });
    this.state.discountCode = code;
  }

  async setShipping(address: ShippingAddress): Promise<void> {
    if (this.persistent && this.state.cartId) await this.db.cart.update({ where: { id: this.state.cartId }, data: { shipping: address } });
    this.state.shipping = address;
  }

  /** A cart that gets new items is no longer the converted cart of an order. */
  private async converted(orderId: string | null): Promise<void> {
    if (this.state.cartId) await this.db.cart.update({ where: { id: this.state.cartId }, data: { orderId } });
  }
}

/** The visible product with this slug and, when given (or required), its variant. 404 / 422 variant_required. */
export async function resolveItem(db: Db, productSlug: string, variantSku: string | undefined): Promise<{ product: Product; variant: ProductVariant | null }> {
  const product = await db.product.findFirst({ where: { slug: productSlug, deletedAt: null, draft: false }, include: { variants: { orderBy: { sku: "asc" } } } });
  return chosen(product, productSlug, variantSku);
}

/** Several items (orders.create's lines) read at once: resolveItem's answers and refusals, in the items' order. */
export async function resolveItems(db: Db, items: ReadonlyArray<{ productSlug: string; variantSku?: string | undefined }>): Promise<Array<{ product: Product; variant: ProductVariant | null }>> {
  const slugs = [...new Set(items.map((item) => item.productSlug))];
  const products = await db.product.findMany({ where: { slug: { in: slugs }, deletedAt: null, draft: false }, include: { variants: { orderBy: { sku: "asc" } } } });
  const bySlug = new Map(products.map((product) => [product.slug, product]));
  return items.map((item) => chosen(bySlug.get(item.productSlug) ?? null, item.productSlug, item.variantSku));
}

function chosen(product: (Product & { variants: ProductVariant[] }) | null, productSlug: string, variantSku: string | undefined): { product: Product; variant: ProductVariant | null } {
  if (!product) throw new NotFound(`No product with slug "${productSlug}".`);
  const { variants, ...row } = product;
  if (variantSku === undefined) {
    if (variants.length > 0) {
      throw new Refused("variant_required", `${product.name} comes in variants; give variantSku, one of: ${variants.map((v) => v.sku).join(", ")}.`);
    }
    return { product: row, variant: null };
  }
  const variant = variants.find((candidate) => candidate.sku === variantSku);
  if (!variant) throw new NotFound(`${product.name} has no variant with SKU "${variantSku}".`);
  return { product: row, variant };
}

/** Refuses (422 insufficient_stock / quantity_limit) a line quantity above the stock or the per-line maximum. */
export function checkQuantity(name: string, stock: bigint, quantity: number, inCart: number): void {
  if (quantity > MAX_LINE_QUANTITY) {
    throw new Refused("quantity_limit", `At most ${MAX_LINE_QUANTITY} units of one item per cart line (${inCart} already in the cart).`);
  }
  if (BigInt(quantity) > stock) {
    throw new Refused("insufficient_stock", `Only ${stock} of ${name} in stock; the cart would hold ${quantity} (${inCart} already in it).`);
  }
}

/** The cart summary every cart tool returns, priced by the one pricing function. */
export async function summarize(db: Db, state: CartState, now: Date): Promise<CartSummary> {
  const pricing = await priceLines(db, state.lines, state.discountCode, now);
  return {
    lines: pricing.lines.map((line) => ({
      lineId: line.lineId,
      productSlug: line.productSlug,
      productName: line.productName,
      variantSku: line.variantSku,
      variantAttributes: line.variantAttributes,
      quantity: line.quantity,
      unitPriceDkk: line.unitPriceDkk,
      lineTotalDkk: line.lineTotalDkk,
      stock: line.stock,
    })),
    itemCount: pricing.itemCount,
    subtotalDkk: pricing.subtotalDkk,
    discountCode: state.discountCode,
    discountDkk: pricing.discountDkk,
    discountNotice: pricing.discountRefusal?.detail ?? null,
    shippingDkk: pricing.shippingDkk,
    vatOere: pricing.vatOere,
    totalDkk: pricing.totalDkk,
    shippingAddress: state.shipping,
  };
}
