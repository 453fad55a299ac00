// customer.delete_address through real HTTP: gone from the book, the default moves on, orders keep their addresses.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["customer:write"] } });
const prisma = () => server.prisma;

async function bookWithTwo() {
  const customer = await createCustomer(server, { email: `book${Math.random()}@example.dk` });
  const old = await prisma().address.create({ data: { customerId: customer.id, name: "A", address: "Gade 1", zip: "8000", city: "Aarhus C", isDefault: true, lastUsedAt: new Date(Date.now() - 60_000) } });
  const recent = await prisma().address.create({ data: { customerId: customer.id, name: "A", address: "Gade 2", zip: "8000", city: "Aarhus C", lastUsedAt: new Date() } });
  return { customer, old, recent };
}

describe("customer.delete_address", () => {
  it("deletes the shopper's default address and makes the most recently used one the default; orders keep theirs", async () => {
    const { customer, old, recent } = await bookWithTwo();
    const order = await createOrder(server, { userId: customer.id, shippingAddress: "Gade 1" });
    const cookie = await sessionFor(server, customer.id);
    expect(expectOk(server, "customer.delete_address", await server.call("customer.delete_address", { id: old.id }, { cookie }))).toEqual({ id: old.id, deleted: true });
    expect(await prisma().address.findUnique({ where: { id: old.id } })).toBeNull();
    expect((await prisma().address.findUniqueOrThrow({ where: { id: recent.id } })).isDefault).toBe(true);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).shippingAddress).toBe("Gade 1");
    expect(await lastAudit(server)).toMatchObject({ tool: "customer.delete_address", subjectType: "address", subjectId: old.id, after: null });
  });

  it("answers 404 for someone else's or a missing address, changing nothing", async () => {
    const { old } = await bookWithTwo();
    const stranger = await createCustomer(server, { email: "stranger@example.dk" });
    const before = await prisma().address.count();
    expectProblem(await server.call("customer.delete_address", { id: old.id }, { cookie: await sessionFor(server, stranger.id) }), 404, "not_found");
    expectProblem(await server.call("customer.delete_address", { customerId: stranger.id, id: old.id }, { key: staff }), 404, "not_found");
    expectProblem(await server.call("customer.delete_address", { customerId: stranger.id, id: "nope" }, { key: staff }), 404, "not_found");
    expect(await prisma().address.count()).toBe(before);
  });

  it("needs customer:write", async () => {
    const { customer, recent } = await bookWithTwo();
    await expectScopeMatrix(server, "customer.delete_address", { customerId: customer.id, id: recent.id });
  });

  it("rejects bad input with a 400 problem and deletes nothing", async () => {
    const count = () => prisma().address.count();
    await expectRejected(server, "customer.delete_address", staff, [{}, { id: "" }, { id: 5 }, { id: "x", extra: 1 }], count);
  });
});
