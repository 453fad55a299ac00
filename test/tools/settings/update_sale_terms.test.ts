// settings.update_sale_terms through real HTTP: the transfer account with its BIC, kept in step with the contact
// section's account (settings.get keeps its shape); per-method free-shipping thresholds that checkout prices by;
// audited, and bad input refused.
import { describe, expect, it } from "vitest";
import { DEMO_BANK_ACCOUNT } from "../../../prisma/seed/demo.ts";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../../support/session.ts";
import { shippedOrder } from "../returns/fixtures.ts";

const { server, keys: { reader, writer } } = useServer({ keys: { reader: ["settings:read"], writer: ["settings:write", "settings:read"] } });

const DANSKE = { bankName: "Danske Bank", regNo: "0040", accountNo: "0440116243", iban: "DK5000400440116243", bic: "DABADKKK" };
const rows = async () => server.runtime.database.prisma.setting.findMany({ where: { section: { in: ["contact", "bank_bic", "delivery_free_from", "return_period"] } }, orderBy: { section: "asc" } });

describe("settings.update_sale_terms", () => {
  it("stores the account whole with its BIC; settings.get shows it without the BIC", async () => {
    const result = expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { bankAccount: DANSKE }, { key: writer }));
    expect(result).toMatchObject({ bankAccount: DANSKE });
    expect(expectOk(server, "settings.get_sale_terms", await server.call("settings.get_sale_terms", {}, { key: reader }))).toMatchObject({ bankAccount: DANSKE });
    const { bic: _bic, ...fields } = DANSKE;
    const settings = expectOk<{ contact: { bankAccount: unknown } }>(server, "settings.get", await server.call("settings.get", {}, { key: reader }));
    expect(settings.contact.bankAccount).toEqual(fields);
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_sale_terms", subjectType: "setting", subjectId: "bank_bic" });
  });

  it("drops the BIC when settings.update_contact puts another account in its place", async () => {
    await server.call("settings.update_sale_terms", { bankAccount: DANSKE }, { key: writer });
    expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { bankAccount: DEMO_BANK_ACCOUNT }, { key: writer }));
    expect(expectOk(server, "settings.get_sale_terms", await server.call("settings.get_sale_terms", {}, { key: reader }))).toMatchObject({ bankAccount: { ...DEMO_BANK_ACCOUNT, bic: null } });
  });

  it("keeps an account without a BIC, and null removes the account", async () => {
    expect(expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { bankAccount: { ...DANSKE, bic: null } }, { key: writer }))).toMatchObject({ bankAccount: { ...DANSKE, bic: null } });
    expect(expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { bankAccount: null }, { key: writer }))).toMatchObject({ bankAccount: null });
    const settings = expectOk<{ contact: { bankAccount: unknown } }>(server, "settings.get", await server.call("settings.get", {}, { key: reader }));
    expect(settings.contact.bankAccount).toBeNull();
  });

  it("merges free-shipping thresholds per delivery method, null drops one, and checkout prices by them", async () => {
    const set = (freeShippingFrom: Record<string, number | null>) => server.call("settings.update_sale_terms", { freeShippingFrom }, { key: writer });
    expect(expectOk(server, "settings.update_sale_terms", await set({ "gls-pakkeshop": 100, "postnord-pakkeshop": 29900 }))).toMatchObject({ freeShippingFrom: { "gls-pakkeshop": 100, "postnord-pakkeshop": 29900 } });
    expect(expectOk(server, "settings.update_sale_terms", await set({ "postnord-pakkeshop": null }))).toMatchObject({ freeShippingFrom: { "gls-pakkeshop": 100 } });
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_sale_terms", subjectId: "delivery_free_from", after: { value: { "gls-pakkeshop": 100 } } });

    const cookie = await newSession(server);
    const [product] = await plainProducts(server, 1);
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product!.slug }, { cookie }));
    const options = expectOk<Array<{ id: string; priceDkk: number }>>(server, "cart.delivery_options", await server.call("cart.delivery_options", {}, { cookie }));
    expect(options.find((option) => option.id === "gls-pakkeshop")?.priceDkk).toBe(0);
    expect(options.find((option) => option.id === "postnord-pakkeshop")?.priceDkk).toBe(3900);
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const placed = expectOk<{ orderId: string }>(server, "cart.checkout", await server.call("cart.checkout", { deliveryMethodId: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar" }, { cookie }));
    const order = await server.runtime.database.prisma.order.findUniqueOrThrow({ where: { id: placed.orderId } });
    expect(order.shippingDkk).toBe(0n);
  });

  it("refuses a threshold for a delivery method the shop does not have (422 unknown_delivery_method)", async () => {
    expectProblem(await server.call("settings.update_sale_terms", { freeShippingFrom: { "dao-hjem": 100 } }, { key: writer }), 422, "unknown_delivery_method");
  });

  it("sets the return period the return tools apply (at least the legal 14 days)", async () => {
    const key = await server.key("returns:write", "catalog:read");
    const order = await shippedOrder(server, { deliveredDaysAgo: 20 });
    const request = () => server.call("returns.request", { orderId: order.id, items: [{ orderItemId: order.items[0]!.id, quantity: 1 }], kind: "withdrawal", reason: "Fortrudt" }, { key });
    expectProblem(await request(), 422, "return_window_closed");
    expect(expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { returnDays: 30 }, { key: writer }))).toMatchObject({ returnDays: 30 });
    expect(await lastAudit(server)).toMatchObject({ subjectId: "return_period", after: { value: { days: 30 } } });
    expect(expectOk(server, "returns.policy", await server.call("returns.policy", { slug: "oakley-aviator-coast-1" }, { key }))).toMatchObject({ withdrawalDays: 30 });
    expectOk(server, "returns.request", await request());
    expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { returnDays: 14 }, { key: writer }));
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_sale_terms", { bankAccount: DANSKE });
  });

  it("rejects bad accounts and writes nothing", async () => {
    await expectRejected(
      server,
      "settings.update_sale_terms",
      writer,
      [
        {}, { bankAccount: { ...DEMO_BANK_ACCOUNT } }, { bankAccount: { ...DANSKE, bic: "dabadkkk" } }, { bankAccount: { ...DANSKE, bic: "DABADK" } },
        { bankAccount: { ...DANSKE, iban: "DK5100400440116243" } }, { bankAccount: { ...DANSKE, regNo: "40" } }, { bankAccount: { ...DANSKE, accountNo: "04-40" } },
        { bankAccount: { ...DANSKE, bankName: "" } }, { bankAccount: { ...DANSKE, swift: "DABADKKK" } }, { returnDays: 30, period: "days" },
        { returnDays: 13 }, { returnDays: 366 }, { returnDays: 20.5 }, { returnDays: "30" },
        { freeShippingFrom: { "postnord-pakkeshop": -1 } }, { freeShippingFrom: { "Post Nord": 100 } }, { freeShippingFrom: { "gls-pakkeshop": 1.5 } },
      ],
      async () => [await rows(), await auditCount(server)],
    );
  });
});
