// orders.get_timeline: one order's history (status changes, notes, e-mails, audit events), oldest first.
import { z } from "zod";
import { limit } from "../fields.ts";
import { NotFound } from "../../core/errors.ts";
import { isoDateTime } from "../shared/timestamps.ts";
import { defineTool, READ } from "../tool.ts";
import { orderId } from "./schemas.ts";

const base = { at: isoDateTime, summary: z.string().describe("One line for a human.") };
const event = z.discriminatedUnion("kind", [
  z.strictObject({ ...base, kind: z.literal("status"), actor: z.string(), fromStatus: z.string().nullable(), toStatus: z.string(), reason: z.string().nullable() }),
  z.strictObject({ ...base, kind: z.literal("note"), actor: z.string(), noteId: z.string(), body: z.string() }),
  z.strictObject({ ...base, kind: z.literal("email"), to: z.string(), subject: z.string(), emailKind: z.string().describe("e.g. order_confirmation."), transport: z.string() }),
  z.strictObject({ ...base, kind: z.literal("audit"), actor: z.string(), auditId: z.string(), tool: z.string(), door: z.string() }),
]);
type Event = z.input<typeof event>;

export default defineTool({
  name: "orders.get_timeline",
  description: "An order's history, oldest first: status changes, notes, e-mails, audit events. Returns [{at, kind, summary, …}].",
  input: z.strictObject({
    orderId,
    limit: limit(100, 100, "Most events, oldest first."),
  }),
  output: z.array(event),
  scope: "orders:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{ orderId: "demo-order-01" }],
  async handler({ orderId: id, limit }, ctx) {
    const order = await ctx.db.order.findUnique({ where: { id }, select: { id: true } });
    if (!order) throw new NotFound(`No order with id "${id}".`);
    const take = { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], take: limit };
    const [changes, notes, emails, audits] = await Promise.all([
      ctx.db.orderStatusChange.findMany({ where: { orderId: id }, ...take }),
      ctx.db.orderNote.findMany({ where: { orderId: id }, ...take }),
      ctx.db.emailMessage.findMany({ where: { orderId: id }, ...take }),
      ctx.db.auditEntry.findMany({ where: { subjectType: "order", subjectId: id }, ...take }),
    ]);
    const events: Array<Event & { time: number; rank: number }> = [
      ...changes.map((c) => ({
        at: c.createdAt.toISOString(), time: c.createdAt.getTime(), rank: 0, kind: "status" as const,
        summary: c.fromStatus ? `Status ${c.fromStatus} → ${c.toStatus}${c.reason ? `: ${c.reason}` : ""}` : `Order created as ${c.toStatus}`,
        actor: c.actor, fromStatus: c.fromStatus, toStatus: c.toStatus, reason: c.reason,
      })),
      ...notes.map((n) => ({
        at: n.createdAt.toISOString(), time: n.createdAt.getTime(), rank: 1, kind: "note" as const,
        summary: `Note by ${n.author}`, actor: n.author, noteId: n.id, body: n.body,
      })),
      ...emails.map((e) => ({
        at: e.createdAt.toISOString(), time: e.createdAt.getTime(), rank: 2, kind: "email" as const,
        summary: `E-mail "${e.subject}" sent to ${e.to}`, to: e.to, subject: e.subject, emailKind: e.kind, transport: e.transport,
      })),
      ...audits.map((a) => ({
        at: a.createdAt.toISOString(), time: a.createdAt.getTime(), rank: 3, kind: "audit" as const,
        summary: `${a.tool} by ${a.actor} via ${a.door}`, actor: a.actor, auditId: a.id, tool: a.tool, door: a.door,
      })),
    ];
    events.sort((a, b) => a.time - b.time || a.rank - b.rank);
    return events.slice(0, limit).map(({ time: _time, rank: _rank, ...rest }) => rest);
  },
});
