// Order numbers under load: checkouts at once take consecutive numbers with no gaps, a checkout rolled back after its
// order was written gives its number back, and (PostgreSQL) two server processes share one gap-free sequence.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProvider } from "../../src/tools/money/payments/provider.ts";
import { expectOk } from "../support/expect.ts";
import { startPeerServer, useServer, type TestServer } from "../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../support/session.ts";

const postgres = Boolean(process.env.TEST_DATABASE_URL);

const { server } = useServer();
let productSlug: string;
beforeAll(async () => {
  const [product] = await plainProducts(server);
  await server.prisma.product.update({ where: { id: product!.id }, data: { stock: 1000n } });
  productSlug = product!.slug;
});

/** Storefront sessions with one line in the cart and a delivery address, ready for cart.checkout. */
async function shoppers(of: TestServer, emails: string[]): Promise<string[]> {
  return Promise.all(
    emails.map(async (email) => {
      const cookie = await newSession(of);
      expectOk(of, "cart.add", await of.call("cart.add", { productSlug }, { cookie }));
      expectOk(of, "cart.set_shipping_address", await of.call("cart.set_shipping_address", { ...ADDRESS, email }, { cookie }));
      return cookie;
    }),
  );
}

const emails = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}@example.dk`);

async function counter(): Promise<number> {
  return (await server.prisma.sequence.findUniqueOrThrow({ where: { name: "order_number" } })).value;
}

async function numbersOf(orderIds: string[]): Promise<number[]> {
  const rows = await server.prisma.order.findMany({ where: { id: { in: orderIds } }, select: { number: true } });
  return rows.map((row) => row.number).sort((a, b) => a - b);
}

const consecutive = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe("order numbers", () => {
  it("give 20 checkouts at once 20 consecutive numbers, no gaps, and leave the counter at the last", async () => {
    const cookies = await shoppers(server, emails("samtidig", 20));
    const last = await counter();
    const responses = await Promise.all(cookies.map((cookie) => server.call("cart.checkout", {}, { cookie })));
    const placed = responses.map((response) => expectOk<{ orderId: string }>(server, "cart.checkout", response));
    expect(await numbersOf(placed.map((order) => order.orderId))).toEqual(consecutive(last + 1, 20));
    expect(await counter()).toBe(last + 20);
  });

  it("give a number back when the checkout rolls back after its order was written", async () => {
    const real = server.runtime.collaborators.payments;
    // The provider fails after the order row (and its number) exists: the whole transaction must roll back.
    const failing: PaymentProvider = {
      name: real.name,
      async createPayment(order) {
        if (order.email.startsWith("afvist")) throw new Error("The payment provider is unreachable.");
        return real.createPayment(order);
      },
      pageUrl: (orderId) => real.pageUrl(orderId),
    };
    const cookies = await shoppers(server, emails("afvist", 5).flatMap((refused, i) => [refused, `betalt${i}@example.dk`]));
    const last = await counter();
    server.runtime.collaborators.payments = failing;
    let responses;
    try {
      responses = await Promise.all(cookies.map((cookie) => server.call("cart.checkout", {}, { cookie })));
    } finally {
      server.runtime.collaborators.payments = real;
    }
    expect(responses.filter((response) => response.status >= 500)).toHaveLength(5);
    const placed = responses.filter((response) => response.status === 200).map((response) => (response.body.result as { orderId: string }).orderId);
    expect(await numbersOf(placed)).toEqual(consecutive(last + 1, 5));
    expect(await server.prisma.order.count({ where: { email: { startsWith: "afvist" } } })).toBe(0);
    expect(await counter()).toBe(last + 5);

    // The refused shoppers try again: they take the very next numbers.
    const retried = await Promise.all(cookies.filter((_, i) => i % 2 === 0).map((cookie) => server.call("cart.checkout", {}, { cookie })));
    const again = retried.map((response) => expectOk<{ orderId: string }>(server, "cart.checkout", response).orderId);
    expect(await numbersOf(again)).toEqual(consecutive(last + 6, 5));
  });

  it("continue after orders.create and a refused checkout without skipping", async () => {
    const key = await server.key("orders:write");
    const last = await counter();
    const created = expectOk<{ orderId: string }>(server, "orders.create", await server.call("orders.create", {
      items: [{ productSlug, quantity: 1 }], email: "telefon@example.dk", shipping: { name: "Jens Jensen", address: "Vestergade 3", zip: "8000", city: "Aarhus C" },
    }, { key }));
    const refused = await server.call("orders.create", { items: [{ productSlug, quantity: 1 }], email: "x@example.dk", shipping: { name: "Jens Jensen", address: "Vestergade 3", zip: "0001", city: "Aarhus C" } }, { key });
    expect(refused.status).toBe(422);
    const [cookie] = await shoppers(server, ["efter@example.dk"]);
    const checkedOut = expectOk<{ orderId: string }>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    expect(await numbersOf([created.orderId, checkedOut.orderId])).toEqual([last + 1, last + 2]);
  });
});

describe.skipIf(!postgres)("order numbers across processes", () => {
  let peer: TestServer;
  beforeAll(async () => {
    peer = await startPeerServer(server);
  });
  afterAll(() => peer?.close());

  it("stay gap-free when two server processes take orders at once", async () => {
    const [here, there] = await Promise.all([shoppers(server, emails("her", 10)), shoppers(peer, emails("der", 10))]);
    const last = await counter();
    const responses = await Promise.all([
      ...here.map((cookie) => server.call("cart.checkout", {}, { cookie })),
      ...there.map((cookie) => peer.call("cart.checkout", {}, { cookie })),
    ]);
    const placed = responses.map((response) => expectOk<{ orderId: string }>(server, "cart.checkout", response));
    expect(await numbersOf(placed.map((order) => order.orderId))).toEqual(consecutive(last + 1, 20));
  });
});
