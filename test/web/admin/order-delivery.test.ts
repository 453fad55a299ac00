// The admin order page says how the order ships: the delivery method chosen at checkout and, for a parcel shop, where
// to send it (orders.get_delivery); an order placed without a method says so.
import { expect, it } from "vitest";
import { signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../../support/session.ts";
import { createOrder } from "../../tools/orders/fixtures.ts";

const { server } = useServer();

it("shows the delivery method and the parcel shop to send to", async () => {
  const cookie = await newSession(server);
  const product = (await plainProducts(server, 3))[0]!;
  await server.call("cart.add", { productSlug: product.slug, quantity: 1 }, { cookie });
  await server.call("cart.set_shipping_address", ADDRESS, { cookie });
  const placed = await server.call("cart.checkout", { deliveryMethodId: "postnord-pakkeshop", pickupPointId: "pn-kbh-netto-nansensgade" }, { cookie });
  const orderId = (placed.body.result as { orderId: string }).orderId;
  const owner = await signedInClient(server, "levering@nordlys.dk");
  const page = await owner.get(`/admin/orders/${orderId}`);
  expect(page.status).toBe(200);
  expect(page.html).toContain("PostNord Pakkeshop (PostNord)");
  expect(page.html).toMatch(/<strong>Pakkeshop:<\/strong> [^<]*Netto/);
  const plain = await createOrder(server, { status: "paid" });
  expect((await owner.get(`/admin/orders/${plain.id}`)).html).toContain("Ikke valgt (fast fragt)");
});

it("shows the region and, abroad, the country of the shipping address", async () => {
  const order = await createOrder(server, { status: "paid" });
  await server.prisma.order.update({ where: { id: order.id }, data: { shippingAddress: "Marienplatz 1", shippingZip: "80331", shippingCity: "München", shippingRegion: "Bayern", shippingCountry: "DE" } });
  const owner = await signedInClient(server, "region@nordlys.dk");
  expect((await owner.get(`/admin/orders/${order.id}`)).html).toContain("80331 München<br>Bayern<br>DE");
});
