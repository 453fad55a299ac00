// The demo shop's history, read through the tools: orders in every status over the last four weeks with legal status
// histories and consistent totals, AI-made orders from the chat and MCP, a draft campaign, subscribers, fixed ids.
import { describe, expect, it } from "vitest";
import { DEMO, DEMO_ORDERS } from "../../prisma/seed/history.ts";
import { vatOf } from "../../src/tools/orders/pricing.ts";
import { canTransition, ORDER_STATUSES } from "../../src/tools/orders/transitions.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read", "marketing:write", "customer:read"] } });

type Summary = { id: string; status: string; createdAt: string };
type Detail = Record<string, unknown> & {
  id: string;
  status: string;
  channel: string;
  isAiGenerated: boolean;
  aiAgentSource: string | null;
  subtotalDkk: number;
  discountDkk: number;
  shippingDkk: number;
  totalDkk: number;
  vatOere: number;
  items: Array<{ unitPriceDkk: number; quantity: number }>;
};
type Event = { kind: string; fromStatus?: string | null; toStatus?: string };

const call = async <T>(name: string, input: object) => expectOk<T>(server, name, await server.call(name, input, { key }));

describe("the demo shop's history", () => {
  it("has orders in every status from the last four weeks, under their fixed ids", async () => {
    const orders = await call<Summary[]>("orders.list", { limit: 100 });
    expect(orders.map((order) => order.id).sort()).toEqual(DEMO_ORDERS.map((_, i) => DEMO.order(i + 1)).sort());
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(ORDER_STATUSES));
    const fourWeeks = Date.now() - 29 * 86_400_000;
    expect(orders.every((order) => Date.parse(order.createdAt) > fourWeeks && Date.parse(order.createdAt) <= Date.now())).toBe(true);
  });

  it("gives every order consistent totals and a status history along legal transitions ending in its status", async () => {
    for (const [i, spec] of DEMO_ORDERS.entries()) {
      const order = await call<Detail>("orders.get", { orderId: DEMO.order(i + 1) });
      expect(order).toMatchObject({ status: spec.status, channel: spec.channel, isAiGenerated: spec.agent !== undefined, aiAgentSource: spec.agent ?? null });
      expect(order.items.reduce((sum, item) => sum + item.unitPriceDkk * item.quantity, 0)).toBe(order.subtotalDkk);
      expect(order.subtotalDkk - order.discountDkk + order.shippingDkk).toBe(order.totalDkk);
      expect(order.vatOere).toBe(Number(vatOf(BigInt(order.totalDkk))));
      const changes = (await call<Event[]>("orders.get_timeline", { orderId: order.id })).filter((event) => event.kind === "status");
      expect(changes[0]).toMatchObject({ fromStatus: null, toStatus: "pending_payment" });
      for (const change of changes.slice(1)) expect(canTransition(change.fromStatus!, change.toStatus!), `${order.id} ${change.fromStatus} → ${change.toStatus}`).toBe(true);
      expect(changes.at(-1)!.toStatus).toBe(spec.status);
    }
  });

  it("has AI-made orders from the storefront chat and MCP agents next to web, phone and e-mail orders", async () => {
    const channels = new Set(DEMO_ORDERS.map((order) => order.channel));
    expect(channels).toEqual(new Set(["web", "chat", "mcp", "phone", "email"]));
    expect(DEMO_ORDERS.filter((order) => order.channel === "chat").every((order) => order.agent === "storefront-assistant")).toBe(true);
    expect(DEMO_ORDERS.filter((order) => order.channel === "mcp").every((order) => order.agent && order.agent !== "storefront-assistant")).toBe(true);
  });

  it("has a draft campaign, subscribers and the customer the examples name", async () => {
    const drafts = await call<Array<{ id: string }>>("marketing.list_campaigns", { status: "draft" });
    expect(drafts.map((campaign) => campaign.id)).toEqual([DEMO.campaign]);
    const subscribers = await call<Array<{ email: string; customerId: string | null }>>("marketing.list_subscribers", {});
    expect(subscribers.length).toBeGreaterThanOrEqual(5);
    expect(subscribers).toContainEqual(expect.objectContaining({ email: DEMO.customerEmail, customerId: DEMO.customer }));
    expect(await call("customer.lookup_by_phone", { phone: DEMO.customerPhone })).toMatchObject({ id: DEMO.customer, email: DEMO.customerEmail });
  });
});
