// Storefront sessions in tests: start one over HTTP (the cookie string to send back), pick demo products, and check
// that bad input leaves a session's cart and the orders untouched.
import { expect } from "vitest";
import { expectProblem } from "./expect.ts";
import type { TestServer } from "./server.ts";

/** POST /api/v1/session and return the `shop_session=…` cookie to send with later calls. */
export async function newSession(server: Pick<TestServer, "url">): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/session`, { method: "POST" });
  expect(response.status).toBe(201);
  const setCookie = response.headers.get("set-cookie");
  if (!setCookie) throw new Error("POST /api/v1/session set no cookie");
  return setCookie.split(";")[0]!;
}

/** The session id inside a cookie string. */
export function sessionIdOf(cookie: string): string {
  return decodeURIComponent(cookie.split("=")[1]!).replace(/\.[^.]*$/, "");
}

export interface DemoProduct {
  id: string;
  slug: string;
  name: string;
  priceDkk: number;
  stock: number;
}

/** Visible demo products without variants (gift cards left out) and with at least `minStock` units, cheapest first. */
export async function plainProducts(server: TestServer, minStock = 1): Promise<DemoProduct[]> {
  const rows = await server.prisma.product.findMany({
    where: { deletedAt: null, stock: { gte: minStock }, variants: { none: {} }, giftCard: false },
    orderBy: [{ priceDkk: "asc" }, { slug: "asc" }],
  });
  return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, priceDkk: Number(row.priceDkk), stock: Number(row.stock) }));
}

/** A visible product with variants, with its variants (sku, price override, stock). */
export async function variantProduct(server: TestServer) {
  const row = await server.prisma.product.findFirstOrThrow({
    where: { deletedAt: null, variants: { some: { priceDkk: { not: null }, stock: { gt: 0 } } } },
    include: { variants: { orderBy: { sku: "asc" } } },
    orderBy: { slug: "asc" },
  });
  return row;
}

/** Rows that bad cart input must leave alone. */
export async function commerceSnapshot(server: TestServer) {
  const prisma = server.prisma;
  const [carts, items, orders, audits, products] = await Promise.all([
    prisma.cart.findMany({ orderBy: { id: "asc" } }),
    prisma.cartItem.findMany({ orderBy: { id: "asc" } }),
    prisma.order.count(),
    prisma.auditEntry.count(),
    prisma.product.findMany({ select: { id: true, stock: true }, orderBy: { id: "asc" } }),
  ]);
  return { carts, items, orders, audits, products };
}

/** Each input is a 400 problem for a cookie session, and nothing was written. */
export async function expectRejectedInSession(server: TestServer, name: string, cookie: string, inputs: unknown[]): Promise<void> {
  const before = await commerceSnapshot(server);
  for (const input of inputs) {
    const response = await server.call(name, input, { cookie });
    if (response.status !== 400) throw new Error(`${name} ${JSON.stringify(input)}: expected 400, got ${response.status} ${JSON.stringify(response.body)}`);
    expectProblem(response, 400);
  }
  for (const raw of ["[1,2]", "\"text\"", "not json", "null"]) expectProblem(await server.call(name, undefined, { cookie, raw }), 400);
  expect(await commerceSnapshot(server)).toEqual(before);
}

export const ADDRESS = { name: "Mette Hansen", address: "Strøget 12", zip: "1160", city: "københavn k", email: "Mette@Example.dk" };
