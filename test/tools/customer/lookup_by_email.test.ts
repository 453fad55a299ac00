// customer.lookup_by_email through real HTTP: staff see anyone with order statistics; a session only its own customer.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["customer:read"] } });
let anna: { id: string };
let bo: { id: string };
beforeAll(async () => {
  anna = await createCustomer(server, { email: "anna@example.dk", name: "Anna Jensen", phone: "+45 11 22 33 44" });
  bo = await createCustomer(server, { email: "bo@example.dk" });
  const a = await createOrder(server, { userId: anna.id, status: "delivered", createdAt: new Date("2026-01-05T10:00:00Z") });
  const b = await createOrder(server, { userId: anna.id, status: "partial_refund", createdAt: new Date("2026-02-05T10:00:00Z") });
  await server.prisma.order.update({ where: { id: b.id }, data: { refundedDkk: 1000n } });
  await createOrder(server, { userId: anna.id, status: "cancelled", createdAt: new Date("2026-03-05T10:00:00Z") });
  await createOrder(server, { userId: anna.id, status: "pending_payment", createdAt: new Date("2026-01-01T10:00:00Z") });
  spent = Number(a.totalDkk + b.totalDkk - 1000n);
});
let spent = 0;

const lookup = (email: string, auth: { key?: string; cookie?: string }) => server.call("customer.lookup_by_email", { email }, auth);

describe("customer.lookup_by_email", () => {
  it("gives staff the customer with order count, total spent and last order", async () => {
    const result = expectOk(server, "customer.lookup_by_email", await lookup("ANNA@example.dk", { key }));
    expect(result).toEqual({
      id: anna.id,
      email: "anna@example.dk",
      name: "Anna Jensen",
      phone: "+45 11 22 33 44",
      createdAt: expect.stringMatching(/Z$/),
      orderCount: 4,
      totalSpentDkk: spent,
      lastOrderAt: "2026-03-05T10:00:00.000Z",
    });
    const empty = expectOk(server, "customer.lookup_by_email", await lookup("bo@example.dk", { key }));
    expect(empty).toMatchObject({ id: bo.id, name: null, orderCount: 0, totalSpentDkk: 0, lastOrderAt: null });
  });

  it("answers 404 for an unknown e-mail", async () => {
    expectProblem(await lookup("nobody@example.dk", { key }), 404, "not_found");
  });

  it("shows a storefront session only its own customer, and others exactly like unknown ones", async () => {
    const cookie = await sessionFor(server, anna.id);
    expect(expectOk(server, "customer.lookup_by_email", await lookup("anna@example.dk", { cookie }))).toMatchObject({ id: anna.id });
    const other = await lookup("bo@example.dk", { cookie });
    const missing = await lookup("nobody@example.dk", { cookie });
    expectProblem(other, 404, "not_found");
    expectProblem(missing, 404, "not_found");
    expect(String(other.body.detail).replace("bo@", "X@")).toBe(String(missing.body.detail).replace("nobody@", "X@"));
    expectProblem(await lookup("anna@example.dk", { cookie: await sessionFor(server, null) }), 404, "not_found");
  });

  it("treats a key with customer:read as staff even with a session cookie", async () => {
    const cookie = await sessionFor(server, anna.id);
    expect(expectOk(server, "customer.lookup_by_email", await lookup("bo@example.dk", { key, cookie }))).toMatchObject({ id: bo.id });
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "customer.lookup_by_email", { email: "anna@example.dk" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "customer.lookup_by_email", key, [{}, { email: "anna" }, { email: 5 }, { email: "anna@example.dk", phone: "1" }]);
  });
});
