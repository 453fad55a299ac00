// Restores an audit entry's before-state from its snapshots, generically over the Prisma models:
// created (before null) → delete; deleted (after null) → recreate; changed → put back the fields the entry changed.
import { Conflict, dbErrorCode, Refused } from "../../core/errors.ts";
import type { AuditEntry } from "../../generated/prisma/client.ts";
import type { ToolContext } from "../context.ts";
import { canTransition } from "../orders/transitions.ts";
import { productSnapshots } from "../products/product-rows.ts";
import { changedFields, delegateOf, sameJson, writeData, type ModelInfo, type Row } from "./model.ts";

export interface Restored {
  action: "deleted" | "recreated" | "restored";
  /** The subject as it was just before the revert, and as the revert left it (the revert's own audit snapshots). */
  before: unknown;
  after: unknown;
}

/** Prisma and PostgreSQL codes for a delete blocked by rows that still refer to the subject (RESTRICT / NO ACTION). */
const FK_CODES = new Set(["P2003", "P2014", "23001", "23503"]);

type Image = { url: string; alt: string | null; sourceId: string | null; position: number };

/** The subject's current snapshot (a product carries its images), or null when the row does not exist. */
async function current(ctx: ToolContext, model: ModelInfo, id: string): Promise<Row | null> {
  if (model.delegate === "product") return ((await productSnapshots(ctx.db, [id]))[0] as Row | undefined) ?? null;
  return delegateOf(ctx.db, model).findUnique({ where: { [model.key]: id } });
}

function changedSince(entry: AuditEntry, what: string): Refused {
  return new Refused("changed_since", `${entry.subjectType} ${entry.subjectId} ${what} since entry ${entry.id}; it cannot be reverted without losing that change.`);
}

export async function restore(ctx: ToolContext, entry: AuditEntry, model: ModelInfo): Promise<Restored> {
  const id = entry.subjectId!;
  const where = { [model.key]: id };
  const delegate = delegateOf(ctx.db, model);
  const before = entry.before as Row | null;
  const after = entry.after as Row | null;
  const now = await current(ctx, model, id);
  const isProduct = model.delegate === "product";

  if (before === null) {
    if (!now || (isProduct && now.deletedAt)) throw changedSince(entry, "was deleted");
    if (isProduct) {
      await delegate.update({ where, data: { deletedAt: ctx.now() } });
    } else {
      try {
        await delegate.delete({ where });
      } catch (error) {
        const code = dbErrorCode(error);
        if (code !== undefined && FK_CODES.has(code)) {
          throw new Refused("has_dependents", `${entry.subjectType} ${id} cannot be deleted: other records (e.g. products in a category) still refer to it.`);
        }
        throw error;
      }
    }
    return { action: "deleted", before: now, after: isProduct ? await current(ctx, model, id) : null };
  }

  if (after === null) {
    if (now) throw changedSince(entry, "exists again");
    try {
      await delegate.create({ data: writeData(model, before) });
    } catch (error) {
      const code = dbErrorCode(error);
      if (code === "P2002" || code === "23505") throw new Conflict(`${entry.subjectType} ${id} cannot be recreated: another ${entry.subjectType} now uses one of its unique values (slug, code …).`);
      if (code !== undefined && FK_CODES.has(code)) throw new Refused("missing_reference", `${entry.subjectType} ${id} cannot be recreated: a record it refers to no longer exists.`);
      throw error;
    }
    if (isProduct) await replaceImages(ctx, id, before.images);
    return { action: "recreated", before: null, after: await current(ctx, model, id) };
  }

  if (!now) throw changedSince(entry, "was deleted");
  const fields = model.delegate === "order" ? new Set(["status"]) : changedFields(model, before, after);
  for (const field of fields) if (!sameJson(now[field], after[field])) throw changedSince(entry, `had its ${field} changed`);
  if (model.delegate === "order") await revertOrderStatus(ctx, entry, String(now.status), String(before.status));
  else if (fields.size) await delegate.update({ where, data: writeData(model, before, fields) });
  if (isProduct && !sameJson(before.images, after.images)) {
    if (!sameJson(now.images, after.images)) throw changedSince(entry, "had its images changed");
    await replaceImages(ctx, id, before.images);
  }
  return { action: "restored", before: now, after: await current(ctx, model, id) };
}

async function replaceImages(ctx: ToolContext, productId: string, images: unknown): Promise<void> {
  const list = Array.isArray(images) ? (images as Image[]) : [];
  await ctx.db.productImage.deleteMany({ where: { productId } });
  if (list.length) {
    await ctx.db.productImage.createMany({
      data: list.map((image) => ({ productId, url: image.url, alt: image.alt ?? null, sourceId: image.sourceId ?? null, position: image.position })),
    });
  }
}

/** Orders: only the status is reverted, and only along a legal transition (DESIGN.md), recorded in the status history. */
async function revertOrderStatus(ctx: ToolContext, entry: AuditEntry, from: string, to: string): Promise<void> {
  if (!canTransition(from, to)) {
    throw new Refused("illegal_transition", `Order ${entry.subjectId} cannot go back from ${from} to ${to}: that transition is not allowed.`);
  }
  await ctx.db.order.update({ where: { id: entry.subjectId! }, data: { status: to } });
  await ctx.db.orderStatusChange.create({
    data: { orderId: entry.subjectId!, fromStatus: from, toStatus: to, actor: ctx.caller.actor, reason: `audit.revert of entry ${entry.id}` },
  });
}
