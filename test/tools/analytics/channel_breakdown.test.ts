// analytics.channel_breakdown through real HTTP: one row per channel/agent combination with exact counts and revenue.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO_ORDERS } from "../../../prisma/seed/history.ts";
import { REVENUE_STATUSES } from "../../../src/tools/analytics/revenue-rules.ts";
import { useServer } from "../../support/server.ts";
import { createOrders } from "./fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["analytics:read"] } });
beforeAll(async () => {
  await createOrders(server, [
    { createdAt: "2025-07-10T10:00:00Z", totalDkk: 10000 },
    { createdAt: "2025-07-11T10:00:00Z", totalDkk: 15000, status: "delivered" },
    { createdAt: "2025-07-12T10:00:00Z", totalDkk: 40000, channel: "mcp", isAiGenerated: true, aiAgentSource: "claude" },
    { createdAt: "2025-07-13T10:00:00Z", totalDkk: 20000, channel: "mcp", isAiGenerated: true, aiAgentSource: "chatgpt", status: "partial_refund", refundedDkk: 2000 },
    { createdAt: "2025-07-14T10:00:00Z", totalDkk: 5000, channel: "web", isAiGenerated: true, aiAgentSource: "storefront-assistant" },
    { createdAt: "2025-07-15T10:00:00Z", totalDkk: 90000, channel: "mcp", isAiGenerated: true, aiAgentSource: "claude", status: "cancelled" },
    { createdAt: "2025-06-30T21:30:00Z", totalDkk: 70000, channel: "acp" },
  ]);
});

type Breakdown = { fromDate: string; toDate: string; channels: Array<{ channel: string; aiAgentSource: string | null; isAiGenerated: boolean; orderCount: number; revenueDkk: number }> };
const breakdown = async (input: object) => expectOk<Breakdown>(server, "analytics.channel_breakdown", await server.call("analytics.channel_breakdown", input, { key }));

describe("analytics.channel_breakdown", () => {
  it("groups counted orders by channel, agent and AI flag, largest revenue first", async () => {
    expect(await breakdown({ fromDate: "2025-07-01", toDate: "2025-07-31" })).toEqual({
      fromDate: "2025-07-01",
      toDate: "2025-07-31",
      channels: [
        { channel: "mcp", aiAgentSource: "claude", isAiGenerated: true, orderCount: 1, revenueDkk: 40000 },
        { channel: "web", aiAgentSource: null, isAiGenerated: false, orderCount: 2, revenueDkk: 25000 },
        { channel: "mcp", aiAgentSource: "chatgpt", isAiGenerated: true, orderCount: 1, revenueDkk: 18000 },
        { channel: "web", aiAgentSource: "storefront-assistant", isAiGenerated: true, orderCount: 1, revenueDkk: 5000 },
      ],
    });
  });

  it("uses Copenhagen day boundaries (21:30 UTC on 30 June is still June locally)", async () => {
    const june = await breakdown({ fromDate: "2025-06-30", toDate: "2025-06-30" });
    expect(june.channels).toEqual([{ channel: "acp", aiAgentSource: null, isAiGenerated: false, orderCount: 1, revenueDkk: 70000 }]);
  });

  it("defaults to the last 30 days: the demo shop's web, phone, chat and MCP orders", async () => {
    const counted = DEMO_ORDERS.filter((order) => (REVENUE_STATUSES as readonly string[]).includes(order.status));
    const groups = new Map<string, number>();
    for (const order of counted) {
      const group = `${order.channel}|${order.agent ?? ""}|${order.agent !== undefined}`;
      groups.set(group, (groups.get(group) ?? 0) + 1);
    }
    const rows = (await breakdown({})).channels;
    expect(rows.map((row) => `${row.channel}|${row.aiAgentSource ?? ""}|${row.isAiGenerated}`).sort()).toEqual([...groups.keys()].sort());
    for (const row of rows) expect(row.orderCount).toBe(groups.get(`${row.channel}|${row.aiAgentSource ?? ""}|${row.isAiGenerated}`));
    expect(rows.map((row) => row.channel)).toEqual(expect.arrayContaining(["web", "chat", "mcp", "phone"]));
    const orders = await server.prisma.order.findMany({ where: { id: { startsWith: "demo-order-" }, status: { in: [...REVENUE_STATUSES] } } });
    expect(rows.reduce((sum, row) => sum + row.revenueDkk, 0)).toBe(orders.reduce((sum, order) => sum + Number(order.totalDkk - order.refundedDkk), 0));
    expect(rows.map((row) => row.revenueDkk)).toEqual([...rows.map((row) => row.revenueDkk)].sort((a, b) => b - a));
  });

  it("needs analytics:read", async () => {
    await expectScopeMatrix(server, "analytics.channel_breakdown", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "analytics.channel_breakdown", key, [
      { fromDate: "yesterday" },
      { toDate: null },
      { fromDate: "2025-07-31", toDate: "2025-07-01" },
      { channel: "web" },
    ]);
  });
});
