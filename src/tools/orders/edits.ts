// Item edits before shipping (orders.change_items): the lines after the edit, the stock that moves and the lines written.
// Its totals are priced again in edit-pricing.ts; what it does to the money is in src/tools/money/item-edits.ts.
import { NotFound, Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import type { OrderItem } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { takeUnits } from "./place.ts";
import type { OrderWithItems } from "./schemas.ts";

export interface LineChange {
  orderItemId: string;
  quantity?: number | undefined;
  variantSku?: string | undefined;
}

/** The variant a line is swapped to, priced from the catalogue. */
interface Swap {
  id: string;
  sku: string;
  attributes: Record<string, string>;
  unitPriceDkk: bigint;
}

/** One line of the order after the edit; quantity 0 removes it. */
export interface EditedLine {
  item: OrderItem;
  quantity: number;
  swap: Swap | null;
}

export const unitOf = (line: EditedLine) => line.swap?.unitPriceDkk ?? line.item.unitPriceDkk;
export const changed = (line: EditedLine) => line.quantity !== line.item.quantity || line.swap !== null;

/** Applies the changes to the order's lines: 404 for a line of another order, 422 invalid_variant for a foreign SKU. */
export async function editedLines(db: Db, order: OrderWithItems, changes: readonly LineChange[]): Promise<EditedLine[]> {
  const byId = new Map(changes.map((change) => [change.orderItemId, change]));
  for (const id of byId.keys()) {
    if (!order.items.some((item) => item.id === id)) throw new NotFound(`Order ${order.id} has no line "${id}".`);
  }
  const lines: EditedLine[] = [];
  for (const item of order.items) {
    const change = byId.get(item.id);
    const quantity = change?.quantity ?? item.quantity;
    const sku = change?.variantSku;
    let swap: Swap | null = null;
    if (sku !== undefined && sku !== item.variantSku && quantity > 0) {
      const variant = await db.productVariant.findUnique({ where: { productId_sku: { productId: item.productId, sku } }, include: { product: true } });
      if (!variant || variant.product.deletedAt) {
        throw new Refused("invalid_variant", `"${sku}" is not a variant of ${item.productName} (line ${item.id}) that is on sale.`);
      }
      swap = { id: variant.id, sku: variant.sku, attributes: variant.attributes as Record<string, string>, unitPriceDkk: variant.priceDkk ?? variant.product.priceDkk };
    }
    lines.push({ item, quantity, swap });
  }
  return lines;
}

interface Movement {
  productId: string;
  variantId: string | null;
  name: string;
  /** Units leaving stock (positive) or coming back (negative). */
  units: number;
}

/**
 * Moves stock for the changed lines: what leaves the order goes back, what comes in is taken with a conditional
 * decrement (422 out_of_stock on a shortfall). Keys in sorted order, so concurrent edits lock rows alike. Returns the
 * products touched.
 */
export async function moveStock(ctx: ToolContext, lines: readonly EditedLine[]): Promise<string[]> {
  const moves = new Map<string, Movement>();
  const add = (productId: string, variantId: string | null, name: string, units: number) => {
    const key = `${productId}:${variantId ?? ""}`;
    const move = moves.get(key) ?? { productId, variantId, name, units: 0 };
    move.units += units;
    moves.set(key, move);
  };
  for (const line of lines.filter(changed)) {
    const { item } = line;
    add(item.productId, item.variantId, item.variantSku ? `${item.productName} (${item.variantSku})` : item.productName, -item.quantity);
    const variant = line.swap ?? (item.variantId ? { id: item.variantId, sku: item.variantSku } : null);
    add(item.productId, variant?.id ?? null, variant ? `${item.productName} (${variant.sku})` : item.productName, line.quantity);
  }
  const now = ctx.now();
  for (const key of [...moves.keys()].sort()) {
    const { productId, variantId, name, units } = moves.get(key)!;
    if (units > 0 && !(await takeUnits(ctx, { productId, variantId, quantity: units, name }))) {
      throw new Refused("out_of_stock", `Not enough of ${name} in stock for ${units} more units.`);
    }
    if (units < 0) {
      const data = { stock: { increment: BigInt(-units) }, updatedAt: now };
      if (variantId) await ctx.db.productVariant.updateMany({ where: { id: variantId }, data });
      else await ctx.db.product.updateMany({ where: { id: productId }, data });
    }
  }
  return [...new Set([...moves.values()].filter((move) => move.units !== 0).map((move) => move.productId))];
}

/** Writes the changed lines: removed ones deleted, swapped ones with the variant's snapshot and catalogue price. */
export async function writeLines(db: Db, lines: readonly EditedLine[]): Promise<void> {
  for (const line of lines.filter(changed)) {
    if (line.quantity === 0) {
      await db.orderItem.delete({ where: { id: line.item.id } });
      continue;
    }
    const swap = line.swap ? { variantId: line.swap.id, variantSku: line.swap.sku, variantAttributes: line.swap.attributes, unitPriceDkk: line.swap.unitPriceDkk } : {};
    await db.orderItem.update({ where: { id: line.item.id }, data: { quantity: line.quantity, ...swap } });
  }
}
