// orders.list through real HTTP: summary shape, newest first, every filter and the search, bounds and scopes, over the
// demo shop's orders (the last four weeks) and older ones written here.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO, DEMO_ORDERS } from "../../../prisma/seed/history.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "./fixtures.ts";

type Summary = { id: string; email: string; status: string; itemCount: number; totalDkk: number; createdAt: string; items: Array<{ quantity: number }> };

const { server, keys: { key } } = useServer({ keys: { key: ["orders:read"] } });
let pendingId: string;
beforeAll(async () => {
  expect(await server.prisma.order.count()).toBe(DEMO_ORDERS.length);
  const day = (n: number) => new Date(Date.UTC(2025, 0, n, 12));
  await createOrder(server, { status: "paid", email: "Anna@Example.dk", createdAt: day(1), quantities: [3, 2], discountDkk: 5000 });
  pendingId = (await createOrder(server, { status: "pending_payment", createdAt: day(2) })).id;
  await createOrder(server, { status: "shipped", email: "anna@example.dk", createdAt: day(3) });
  for (let i = 0; i < 22; i++) await createOrder(server, { status: "completed", createdAt: day(10 + i) });
});

const list = async (input: object) => expectOk<Summary[]>(server, "orders.list", await server.call("orders.list", input, { key }));

describe("orders.list", () => {
  it("returns 20 summaries by default, newest first", async () => {
    const result = await list({});
    expect(result).toHaveLength(20);
    const times = result.map((o) => o.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(await list({ limit: 100 })).toHaveLength(DEMO_ORDERS.length + 25);
    expect(result.map((o) => o.id)).toContain(DEMO.order(21));
  });

  it("counts units in itemCount and lists the lines", async () => {
    const [first] = await list({ status: "paid", email: "anna@example.dk" });
    expect(first!.itemCount).toBe(5);
    expect(first!.items.map((i) => i.quantity)).toEqual(expect.arrayContaining([3, 2]));
    expect(first).toMatchObject({ email: "Anna@Example.dk", discountDkk: 5000, discountCode: "SOMMER10", shippingName: "Mette Hansen" });
  });

  it("filters by status, e-mail (case-insensitive) and creation time", async () => {
    expect((await list({ status: "pending_payment" })).map((o) => o.id)).toEqual([DEMO.order(21), DEMO.order(20), pendingId]);
    expect((await list({ status: "refunded" })).map((o) => o.id)).toEqual([DEMO.order(5)]);
    expect(await list({ status: "pending", email: "anna@example.dk" })).toEqual([]);
    const anna = await list({ email: "ANNA@example.DK" });
    expect(anna.map((o) => o.status)).toEqual(["shipped", "paid"]);
    const range = await list({ fromDate: "2025-01-02T00:00:00Z", toDate: "2025-01-03T12:00:00Z" });
    expect(range.map((o) => o.status)).toEqual(["pending_payment"]);
    expect((await list({ fromDate: "2025-01-02T13:00:00+01:00", toDate: "2025-01-03T12:00:00.001Z" })).map((o) => o.status)).toEqual(["shipped", "pending_payment"]);
  });

  it("searches by order number (1001 or #1001), part of the e-mail or the delivery name, any case", async () => {
    const ids = async (query: string, more: object = {}) => (await list({ query, limit: 100, ...more })).map((o) => o.id);
    expect(await ids("1001")).toEqual([DEMO.order(1)]);
    expect(await ids(" #1001 ")).toEqual([DEMO.order(1)]);
    expect(await ids("# 1005", { status: "paid" })).toEqual([]);
    expect(await ids("999999")).toEqual([]);
    expect((await list({ query: "ANNA@EXAMPLE" })).map((o) => o.status)).toEqual(["shipped", "paid"]);
    const byName = await ids("sofie peder");
    const sofie = DEMO_ORDERS.flatMap((order, i) => (order.customer === "sofie" ? [DEMO.order(i + 1)] : []));
    expect([...byName].sort()).toEqual([...sofie].sort());
    expect(await ids("sofie", { status: "shipped" })).toEqual([DEMO.order(10)]);
  });

  it("refuses a range that ends before it starts", async () => {
    const response = await server.call("orders.list", { fromDate: "2026-02-01T00:00:00Z", toDate: "2026-01-01T00:00:00Z" }, { key });
    expect(response.status).toBe(400);
  });

  it("needs orders:read", async () => {
    await expectScopeMatrix(server, "orders.list", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "orders.list", key, [
      { limit: 0 },
      { limit: 101 },
      { limit: 2.5 },
      { status: "shipping" },
      { email: "not-an-email" },
      { fromDate: "yesterday" },
      { toDate: "2026-01-01" },
      { query: "" },
      { query: "   " },
      { query: "x".repeat(201) },
      { query: 1001 },
      { other: true },
    ]);
  });
});
