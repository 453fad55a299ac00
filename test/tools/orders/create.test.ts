// orders.create through real HTTP: staff/agent orders priced from the catalogue, stock and discount taken, refusals.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { commerceSnapshot, plainProducts, variantProduct } from "../../support/session.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["orders:write"] } });

type Created = { orderId: string; status: string; subtotalDkk: number; discountDkk: number; shippingDkk: number; vatOere: number; totalDkk: number; paymentUrl: string };
const SHIPPING = { name: "Jens Jensen", address: "Vestergade 3", zip: "8000", city: "AARHUS C" };
const prisma = () => server.prisma;

describe("orders.create", () => {
  it("creates a pending_payment order priced from the catalogue and takes the stock", async () => {
    const [a, b] = (await plainProducts(server, 2)).slice(0, 2);
    const input = {
      items: [{ productSlug: a!.slug, quantity: 2 }, { productSlug: b!.slug, quantity: 1 }],
      email: "Jens@Example.dk",
      phone: "+45 11 22 33 44",
      shipping: SHIPPING,
      billing: { name: "Firma ApS", address: "Havnegade 1", zip: "5000", city: "Odense C" },
      channel: "phone",
      aiAgentSource: "claude-desktop",
    };
    const result = expectOk<Created>(server, "orders.create", await server.call("orders.create", input, { key }));
    const subtotal = a!.priceDkk * 2 + b!.priceDkk;
    const shipping = subtotal >= 49900 ? 0 : 4900;
    expect(result).toEqual({
      orderId: expect.any(String), status: "pending_payment", subtotalDkk: subtotal, discountDkk: 0, shippingDkk: shipping,
      vatOere: Math.round((subtotal + shipping) / 5), totalDkk: subtotal + shipping, paymentUrl: expect.stringContaining(`/orders/${result.orderId}/pay?token=`),
    });
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: true, customer: true } });
    expect(order).toMatchObject({
      email: "jens@example.dk", shippingCity: "Aarhus C", billingName: "Firma ApS", billingCity: "Odense C", billingCountry: "DK",
      phoneNumber: "+45 11 22 33 44", channel: "phone", isAiGenerated: true, aiAgentSource: "claude-desktop", sessionId: null,
    });
    expect(order.customer!.email).toBe("jens@example.dk");
    expect(order.items.map((item) => [item.productId, item.quantity]).sort()).toEqual([[a!.id, 2], [b!.id, 1]].sort());
    expect(Number((await prisma().product.findUniqueOrThrow({ where: { id: a!.id } })).stock)).toBe(a!.stock - 2);
    const audit = await lastAudit(server);
    expect(audit).toMatchObject({ tool: "orders.create", subjectType: "order", subjectId: order.id, before: null, actor: expect.stringMatching(/^key:/) });
  });

  it("applies a discount code, prices variants and defaults the channel to the door", async () => {
    const product = await variantProduct(server);
    const variant = product.variants.find((v) => v.priceDkk !== null && v.stock > 0n)!;
    const result = expectOk<Created>(server, "orders.create", await server.call("orders.create", {
      items: [{ productSlug: product.slug, variantSku: variant.sku, quantity: 1 }], email: "a@example.dk", shipping: SHIPPING, discountCode: "velkommen10",
    }, { key }));
    expect(result.subtotalDkk).toBe(Number(variant.priceDkk));
    expect(result.discountDkk).toBe(Math.round(Number(variant.priceDkk) / 10));
    const order = await prisma().order.findUniqueOrThrow({ where: { id: result.orderId }, include: { items: true } });
    expect(order).toMatchObject({ discountCode: "VELKOMMEN10", channel: "web", isAiGenerated: false, aiAgentSource: null });
    expect(order.items[0]).toMatchObject({ variantSku: variant.sku, unitPriceDkk: variant.priceDkk });
  });

  it("refuses what it cannot sell, writing nothing", async () => {
    const [product] = await plainProducts(server);
    const variants = await variantProduct(server);
    const sold = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, stock: 0, variants: { none: {} } } });
    const base = { email: "b@example.dk", shipping: SHIPPING };
    const item = { productSlug: product!.slug, quantity: 1 };
    const before = await commerceSnapshot(server);
    const cases: Array<[object, number, string]> = [
      [{ ...base, items: [{ productSlug: "no-such-product", quantity: 1 }] }, 404, "not_found"],
      [{ ...base, items: [{ productSlug: variants.slug, quantity: 1 }] }, 422, "variant_required"],
      [{ ...base, items: [{ productSlug: sold.slug, quantity: 1 }] }, 422, "insufficient_stock"],
      [{ ...base, items: [item, { productSlug: product!.slug, quantity: product!.stock }] }, 422, "insufficient_stock"],
      [{ ...base, items: [item], discountCode: "UDLOBET" }, 422, "discount_unavailable"],
      [{ ...base, items: [item], discountCode: "NOPE" }, 422, "discount_unavailable"],
      [{ ...base, items: [item], shipping: { ...SHIPPING, zip: "0001" } }, 422, "invalid_address"],
      [{ ...base, items: [item], billing: { ...SHIPPING, city: "Odense C" } }, 422, "invalid_address"],
    ];
    for (const [input, status, code] of cases) expectProblem(await server.call("orders.create", input, { key }), status, code);
    expect(await commerceSnapshot(server)).toEqual(before);
  });

  it("enforces its scope", async () => {
    const [product] = await plainProducts(server, 20);
    await expectScopeMatrix(server, "orders.create", { items: [{ productSlug: product!.slug, quantity: 1 }], email: "c@example.dk", shipping: SHIPPING });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const [product] = await plainProducts(server);
    const good = { items: [{ productSlug: product!.slug, quantity: 1 }], email: "d@example.dk", shipping: SHIPPING };
    await expectRejected(server, "orders.create", key, [
      {},
      { ...good, items: [] },
      { ...good, items: [{ productSlug: product!.slug, quantity: 0 }] },
      { ...good, items: [{ productSlug: product!.slug, quantity: 101 }] },
      { ...good, items: [{ productSlug: product!.slug }] },
      { ...good, email: "nope" },
      { ...good, shipping: { ...SHIPPING, zip: "80000" } },
      { ...good, shipping: { name: "X Y" } },
      { ...good, channel: "fax" },
      { ...good, billing: { ...SHIPPING, country: "SE" } },
      { ...good, status: "paid" },
    ], () => commerceSnapshot(server));
  });
});
