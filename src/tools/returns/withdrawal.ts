// The withdrawal function (forbrugeraftaleloven; Consumer Rights Directive art. 11a): a declaration by order number,
// e-mail and name is matched to its order in the background, after returns.withdraw has answered, so neither the
// answer nor its timing tells whether the order exists. On a match it opens the withdrawal return staff see (or, for an
// order not yet shipped, a ticket to stop it) and e-mails the order's address a receipt of what was declared.
import { Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";
import { toJson } from "../../core/json.ts";
import type { AuditRecord, ToolContext } from "../context.ts";
import { itemOrder, type OrderWithItems } from "../orders/schemas.ts";
import { withdrawalDeadline } from "./deadlines.ts";
import { returnSnapshot, withItems, type ReturnWithItems } from "./schemas.ts";
import { assertReturnable, heldUnits, loadOrderForReturn } from "./return-rules.ts";
import { emitReturnRequested } from "./webhook-events.ts";
import { mailWithdrawalReceipt, type Declaration, type Outcome } from "./withdrawal-mail.ts";

/** The reason a return opened by the withdrawal function carries (staff read it in the admin). */
export const WITHDRAWAL_REASON = "Fortrydelse via fortrydelsesfunktionen";

/** Names compared as people type them: case, accents' composition and spacing do not matter. */
function sameName(a: string | null | undefined, b: string): boolean {
  const norm = (s: string) => s.normalize("NFKC").toLocaleLowerCase("da-DK").replace(/\s+/g, " ").trim();
  return !!a && norm(a) === norm(b);
}

/** Runs in the background (ctx's transaction is over): matches, records and mails in a transaction of its own. */
export async function processWithdrawal(ctx: ToolContext, declaration: Declaration, receivedAt: Date): Promise<void> {
  const effects: Array<() => Promise<void> | void> = [];
  const outcome = await ctx.collaborators.transaction(async (db) => {
    const order = await db.order.findUnique({ where: { number: declaration.orderNumber }, include: { items: { orderBy: itemOrder }, customer: { select: { name: true } } } });
    if (!order || order.email.toLowerCase() !== declaration.email.toLowerCase()) return null;
    if (![order.shippingName, order.billingName, order.customer?.name].some((name) => sameName(name, declaration.name))) return null;
    return record(within(ctx, db, effects), declaration, receivedAt);
  });
  for (const effect of effects) await effect();
  if (outcome) await mailWithdrawalReceipt(ctx, declaration, receivedAt, outcome);
}

/** A context for this background transaction: its db, audit entries written in it, effects run after it commits. */
function within(ctx: ToolContext, db: Db, effects: Array<() => Promise<void> | void>): ToolContext {
  const audit = async (entry: AuditRecord) => {
    const row = await db.auditEntry.create({
      data: {
        tool: "returns.withdraw",
        actor: ctx.caller.actor,
        door: ctx.door,
        requestId: ctx.requestId,
        subjectType: entry.subjectType,
        subjectId: entry.subjectId,
        before: toJson(entry.before) ?? undefined,
        after: toJson(entry.after) ?? undefined,
      },
      select: { id: true },
    });
    return row.id;
  };
  return { ...ctx, db, audit, unchanged: () => {}, afterCommit: (effect) => void effects.push(effect) };
}

async function record(ctx: ToolContext, declaration: Declaration, receivedAt: Date): Promise<Outcome> {
  const order = await loadOrderForReturn(ctx, (await ctx.db.order.findUniqueOrThrow({ where: { number: declaration.orderNumber }, select: { id: true } })).id, { lock: true });
  try {
    await assertReturnable(ctx, order, "withdrawal");
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    if (error.code === "not_shipped") return { kind: "unshipped", order, ticketId: await stopTicket(ctx, order, receivedAt) };
    if (error.code === "return_window_closed") return { kind: "late", order, deadline: await deadlineOf(ctx, order) };
    return { kind: "closed", order };
  }
  const held = await heldUnits(ctx.db, order.id);
  const fixed = new Set((await ctx.db.product.findMany({ where: { id: { in: order.items.map((i) => i.productId) }, returnable: false }, select: { id: true } })).map((p) => p.id));
  const asked = declaration.lines?.length ? declaration.lines : order.items.map((item) => ({ orderItemId: item.id, quantity: undefined }));
  const items: Array<{ orderItemId: string; quantity: number }> = [];
  for (const line of asked) {
    const item = order.items.find((i) => i.id === line.orderItemId);
    const left = item ? item.quantity - (held.get(item.id) ?? 0) : 0;
    if (!item || fixed.has(item.productId) || left <= 0 || items.some((i) => i.orderItemId === item.id)) continue;
    items.push({ orderItemId: item.id, quantity: Math.min(left, line.quantity ?? left) });
  }
  const excluded = order.items.filter((item) => fixed.has(item.productId)).map((item) => item.productName);
  if (!items.length) return { kind: "nothing", order, excluded };
  const created: ReturnWithItems = await ctx.db.returnRequest.create({
    data: { orderId: order.id, kind: "withdrawal", reason: WITHDRAWAL_REASON, requestedBy: ctx.caller.actor, createdAt: receivedAt, updatedAt: receivedAt, items: { create: items } },
    include: withItems,
  });
  await ctx.audit({ subjectType: "return", subjectId: created.id, before: null, after: returnSnapshot(created) });
  await emitReturnRequested(ctx, created);
  return { kind: "opened", order, ret: created, excluded };
}

async function deadlineOf(ctx: ToolContext, order: OrderWithItems): Promise<Date | null> {
  const change = await ctx.db.orderStatusChange.findFirst({ where: { orderId: order.id, toStatus: { in: ["delivered", "completed"] } }, orderBy: { createdAt: "asc" } });
  return change ? withdrawalDeadline(change.createdAt) : null;
}

/** Not shipped yet: the shopper withdraws by stopping the order; staff get a ticket to cancel it (orders.cancel). */
async function stopTicket(ctx: ToolContext, order: OrderWithItems, at: Date): Promise<string> {
  const ticket = await ctx.db.supportTicket.create({
    data: {
      subject: `Fortrydelse af ordre #${order.number} før afsendelse`,
      email: order.email,
      customerId: order.userId,
      orderId: order.id,
      openedBy: ctx.caller.actor,
      createdAt: at,
      updatedAt: at,
      messages: { create: { from: "shopper", author: ctx.caller.actor, body: "Kunden har fortrudt købet via fortrydelsesfunktionen, før ordren blev sendt. Annullér ordren.", createdAt: at } },
    },
  });
  await ctx.audit({ subjectType: "support_ticket", subjectId: ticket.id, before: null, after: ticket });
  return ticket.id;
}
