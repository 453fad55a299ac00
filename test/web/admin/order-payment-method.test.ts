// The admin order page names how an order is paid: a bank-transfer order staff marked paid records no method, yet the
// page says "Bankoverførsel" (issue 39 item 10), and a recorded method shows in Danish.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "../../tools/orders/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer.betaling@nordlys.dk");
});

const method = (html: string) => /<dt>Metode<\/dt>\s*<dd>([^<]*)<\/dd>/.exec(html)?.[1];

describe("the order page's payment method", () => {
  it("says bank transfer for a manual order, waiting or paid, and a recorded method in Danish", async () => {
    const unpaid = await createOrder(server, { status: "pending_payment" });
    expect(method((await owner.get(`/admin/orders/${unpaid.id}`)).html)).toBe("Bankoverførsel (afventer betaling)");
    const paid = await createOrder(server, { status: "paid" });
    expect(method((await owner.get(`/admin/orders/${paid.id}`)).html)).toBe("Bankoverførsel");
    await server.runtime.database.prisma.order.update({ where: { id: paid.id }, data: { paymentMethod: "mobilepay" } });
    expect(method((await owner.get(`/admin/orders/${paid.id}`)).html)).toBe("MobilePay");
  });
});
