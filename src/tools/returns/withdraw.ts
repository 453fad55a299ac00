// returns.withdraw: the withdrawal function anyone may use without an account (the /fortryd page, agents): the answer
// is the same whether or not the order matches; the matching, the return and the receipt happen in the background.
import { z } from "zod";
import { CommittedRefusal, RateLimited } from "../../core/errors.ts";
import { countAttempt } from "../../core/throttle.ts";
import type { ToolContext } from "../context.ts";
import { orderNumber } from "../orders/schemas.ts";
import { defineTool, WRITE } from "../tool.ts";
import { processWithdrawal } from "./withdrawal.ts";

/** Declarations per client address, and per order number, an hour: enough for a person, not for trying numbers. */
export const WITHDRAWALS_PER_ADDRESS_PER_HOUR = 20;
export const WITHDRAWALS_PER_ORDER_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

async function spend(ctx: ToolContext, bucket: string, limit: number): Promise<void> {
  const verdict = await countAttempt(ctx.db, bucket, limit, HOUR_MS, ctx.now());
  if (!verdict.allowed) throw new CommittedRefusal(new RateLimited(verdict.retryAfterSeconds, "Too many withdrawals were declared"));
}

export default defineTool({
  name: "returns.withdraw",
  description:
    "The shopper's right of withdrawal, no sign-in: declare it by order number, e-mail and name (lines: only some). " +
    "If they match a delivered order within 14 days, a withdrawal return opens and a receipt is e-mailed to the " +
    "order's address; refund once goods are back. Same answer either way. Returns {received, receivedAt}.",
  errors: [{ status: 429, when: `past ${WITHDRAWALS_PER_ADDRESS_PER_HOUR} an hour per client address or ${WITHDRAWALS_PER_ORDER_PER_HOUR} per order number` }],
  input: z.strictObject({
    orderNumber,
    email: z.email().max(254).describe("The order's e-mail, any case."),
    name: z.string().trim().min(1).max(200).describe("The name on the order."),
    lines: z
      .array(z.strictObject({
        orderItemId: z.string().min(1).max(200).describe("orders.get items[].id."),
        quantity: z.number().int().min(1).max(10000).optional().describe("Units; default all."),
      }))
      .min(1)
      .max(100)
      .refine((lines) => new Set(lines.map((l) => l.orderItemId)).size === lines.length, "Name each order line once")
      .optional()
      .describe("Only these lines; default the whole order."),
  }),
  output: z.strictObject({
    received: z.literal(true),
    receivedAt: z.string().describe("When the declaration was received (ISO 8601): the time the receipt names."),
  }),
  scope: "returns:write",
  anonymous: true,
  audited: false,
  annotations: WRITE,
  examples: [{ orderNumber: 1022, email: "kunde@example.dk", name: "Mette Hansen" }],
  async handler(input, ctx) {
    await spend(ctx, `withdraw-address:${ctx.caller.address ?? ctx.caller.actor}`, WITHDRAWALS_PER_ADDRESS_PER_HOUR);
    await spend(ctx, `withdraw-order:${input.orderNumber}`, WITHDRAWALS_PER_ORDER_PER_HOUR);
    const receivedAt = ctx.now();
    ctx.afterCommit(() => ctx.collaborators.background.track(processWithdrawal(ctx, input, receivedAt)));
    return { received: true as const, receivedAt: receivedAt.toISOString() };
  },
});
