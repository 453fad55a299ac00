// analytics.cancel_reasons: checkout sessions agents canceled in a date range, per agent platform, with the reasons
// their intent traces gave (checkout.cancel's intentTrace; ACP's cancel intent_trace).
import { z } from "zod";
import { CANCEL_REASONS, intentTrace } from "../checkout/schemas.ts";
import { defineTool, READ } from "../tool.ts";
import { rangeFields, rangeOutput, resolveRange } from "./revenue-rules.ts";

export default defineTool({
  name: "analytics.cancel_reasons",
  description:
    "Canceled checkout sessions per agent platform (key name, UCP agent or shopper), most first, with reason counts. " +
    "Returns {fromDate, toDate, platforms}.",
  input: z.strictObject(rangeFields),
  output: z.strictObject({
    ...rangeOutput,
    platforms: z.array(
      z.strictObject({
        platform: z.string().describe("The API key's name, the UCP agent's name, or the kind of caller."),
        protocol: z.string().describe("acp, ucp or shop."),
        canceled: z.number().int().min(0),
        withReason: z.number().int().min(0).describe("Canceled with an intent trace."),
        reasons: z.array(z.strictObject({ reasonCode: z.enum(CANCEL_REASONS), count: z.number().int().min(1) })),
      }),
    ),
  }),
  scope: "analytics:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}, { fromDate: "2026-01-01", toDate: "2026-06-30" }],
  async handler(input, ctx) {
    const range = resolveRange(input, ctx.now());
    const sessions = await ctx.db.checkoutSession.findMany({
      where: { canceledAt: { gte: range.from, lt: range.to } },
      select: { owner: true, protocol: true, agentName: true, intentTrace: true },
    });
    const keyIds = [...new Set(sessions.flatMap((session) => (session.owner.startsWith("key:") ? [session.owner.slice(4)] : [])))];
    const keys = new Map((await ctx.db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } })).map((key) => [key.id, key.name]));
    const rows = new Map<string, { platform: string; protocol: string; canceled: number; withReason: number; reasons: Map<string, number> }>();
    for (const session of sessions) {
      const platform = session.owner.startsWith("key:") ? (keys.get(session.owner.slice(4)) ?? session.owner) : (session.agentName ?? session.owner.split(":")[0]!);
      const id = `${session.protocol}|${platform}`;
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { platform, protocol: session.protocol, canceled: 0, withReason: 0, reasons: new Map() }));
      row.canceled++;
      const trace = intentTrace.safeParse(session.intentTrace);
      if (!trace.success) continue;
      row.withReason++;
      row.reasons.set(trace.data.reasonCode, (row.reasons.get(trace.data.reasonCode) ?? 0) + 1);
    }
    const platforms = [...rows.values()]
      .map((row) => ({
        ...row,
        reasons: [...row.reasons]
          .map(([reasonCode, count]) => ({ reasonCode: reasonCode as (typeof CANCEL_REASONS)[number], count }))
          .sort((a, b) => b.count - a.count || a.reasonCode.localeCompare(b.reasonCode)),
      }))
      .sort((a, b) => b.canceled - a.canceled || a.platform.localeCompare(b.platform) || a.protocol.localeCompare(b.protocol));
    return { fromDate: range.fromDate, toDate: range.toDate, platforms };
  },
});
