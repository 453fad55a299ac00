// customer.list through real HTTP: staff only, newest first, statistics from SQL, search and pagination.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { DEMO, DEMO_ORDERS } from "../../../prisma/seed/history.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

type Row = { id: string; email: string; orderCount: number; totalSpentDkk: number; lastOrderAt: string | null };

const { server, keys: { key } } = useServer({ keys: { key: ["customer:read"] } });
const ids: string[] = [];
/** Every customer, newest first: the demo shop's (created in the last weeks), then the older ones made here. */
let newestFirst: string[] = [];
beforeAll(async () => {
  const demo = await server.prisma.customer.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  expect(demo.map((c) => c.id)).toContain(DEMO.customer);
  for (let i = 0; i < 25; i++) {
    const customer = await createCustomer(server, { email: `kunde${String(i).padStart(2, "0")}@example.dk`, ...(i === 7 && { name: "Søren Kierkegaard" }), createdAt: new Date(Date.UTC(2025, 0, i + 1)) });
    ids.push(customer.id);
  }
  const paid = await createOrder(server, { userId: ids[24], status: "completed" });
  await createOrder(server, { userId: ids[24], status: "refunded" });
  expectedSpent = Number(paid.totalDkk);
  newestFirst = [...demo.map((c) => c.id), ...[...ids].reverse()];
});
let expectedSpent = 0;

const list = async (input: object) => expectOk<Row[]>(server, "customer.list", await server.call("customer.list", input, { key }));

describe("customer.list", () => {
  it("lists 20 customers by default, newest first, with statistics", async () => {
    const rows = await list({});
    expect(rows.map((r) => r.id)).toEqual(newestFirst.slice(0, 20));
    const all = await list({ limit: 100 });
    expect(all.map((r) => r.id)).toEqual(newestFirst);
    expect(all.find((r) => r.id === ids[24])).toMatchObject({ orderCount: 2, totalSpentDkk: expectedSpent, lastOrderAt: expect.stringMatching(/Z$/) });
    expect(all.find((r) => r.id === ids[23])).toMatchObject({ orderCount: 0, totalSpentDkk: 0, lastOrderAt: null });
    const mette = DEMO_ORDERS.filter((order) => order.customer === "mette");
    // Mette's demo orders are all paid ones (paid, shipped, delivered, completed), so all of them count as spent.
    const paidOrders = await server.prisma.order.findMany({ where: { userId: DEMO.customer } });
    expect(paidOrders.every((order) => order.paidAt !== null && order.refundedDkk === 0n)).toBe(true);
    const spent = paidOrders.reduce((sum, order) => sum + Number(order.totalDkk), 0);
    expect(all.find((r) => r.id === DEMO.customer)).toMatchObject({ email: DEMO.customerEmail, orderCount: mette.length, totalSpentDkk: spent });
  });

  it("pages with limit and offset", async () => {
    expect((await list({ limit: 5, offset: 20 })).map((r) => r.id)).toEqual(newestFirst.slice(20, 25));
    expect(await list({ offset: 100 })).toEqual([]);
  });

  it("searches e-mail and name, case-insensitively, with LIKE wildcards taken literally", async () => {
    expect((await list({ q: "SØREN" })).map((r) => r.id)).toEqual([ids[7]]);
    expect((await list({ q: "kunde0", limit: 100 })).length).toBe(10);
    expect(await list({ q: "%" })).toEqual([]);
    expect(await list({ q: "_unde" })).toEqual([]);
  });

  it("is forbidden to a storefront session", async () => {
    const cookie = await sessionFor(server, ids[0]!);
    expectProblem(await server.call("customer.list", {}, { cookie }), 403, "forbidden");
    expectProblem(await server.call("customer.list", { limit: "all" }, { cookie }), 403, "forbidden");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "customer.list", {});
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "customer.list", key, [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { offset: 1.5 }, { q: "" }, { q: "x".repeat(101) }, { sort: "name" }]);
  });
});
