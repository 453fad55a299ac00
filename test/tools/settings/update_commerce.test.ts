// settings.update_commerce through real HTTP: merged into the commerce row and audited; the currency locked once an order exists.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });

const stored = async () => (await server.prisma.setting.findUnique({ where: { section: "commerce" } }))?.value ?? null;
const update = async (input: object) => expectOk(server, "settings.update_commerce", await server.call("settings.update_commerce", input, { key }));

describe("settings.update_commerce", () => {
  it("changes VAT and checkout requirements and keeps the rest", async () => {
    expect(await update({ pricesIncludeVat: false })).toEqual({ currency: "DKK", pricesIncludeVat: false, checkoutNeeds: "full_address", agentAccess: "open" });
    expect(await update({ checkoutNeeds: "country", agentAccess: "signed" })).toEqual({ currency: "DKK", pricesIncludeVat: false, checkoutNeeds: "country", agentAccess: "signed" });
    expect(await stored()).toEqual({ pricesIncludeVat: false, checkoutNeeds: "country", agentAccess: "signed" });
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_commerce", subjectType: "setting", subjectId: "commerce", after: { value: { checkoutNeeds: "country" } } });
    expect(await update({ pricesIncludeVat: true, checkoutNeeds: "full_address", agentAccess: "open" })).toEqual({ currency: "DKK", pricesIncludeVat: true, checkoutNeeds: "full_address", agentAccess: "open" });
  });

  it("switches agent checkouts off and on again (agentAccess off), shown by settings.get_commerce", async () => {
    expect(await update({ agentAccess: "off" })).toMatchObject({ agentAccess: "off" });
    const read = await server.call("settings.get_commerce", {}, { key: await server.key("settings:read") });
    expect(expectOk(server, "settings.get_commerce", read)).toMatchObject({ agentAccess: "off" });
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_commerce", subjectId: "commerce", after: { value: { agentAccess: "off" } } });
    expect(await update({ agentAccess: "open" })).toMatchObject({ agentAccess: "open" });
  });

  it("refuses another currency once an order exists (422 currency_locked), and takes the same one", async () => {
    const before = [await stored(), await auditCount(server)];
    const refused = await server.call("settings.update_commerce", { currency: "USD" }, { key });
    expectProblem(refused, 422, "currency_locked");
    expect(refused.body.detail).toMatch(/orders in DKK/);
    expect([await stored(), await auditCount(server)]).toEqual(before);
    expect(await update({ currency: "DKK" })).toMatchObject({ currency: "DKK" });
  });

  it("changes the currency of a shop without orders; VAT then defaults to excluded", async () => {
    await server.prisma.order.deleteMany();
    await server.prisma.setting.update({ where: { section: "commerce" }, data: { value: {} } });
    expect(await update({ currency: "USD" })).toEqual({ currency: "USD", pricesIncludeVat: false, checkoutNeeds: "full_address", agentAccess: "open" });
    expect(await update({ currency: "EUR", pricesIncludeVat: true })).toEqual({ currency: "EUR", pricesIncludeVat: true, checkoutNeeds: "full_address", agentAccess: "open" });
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_commerce", { checkoutNeeds: "full_address", agentAccess: "open" });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "settings.update_commerce",
      key,
      [{}, { currency: "usd" }, { currency: "US" }, { currency: "EURO" }, { pricesIncludeVat: "yes" }, { checkoutNeeds: "email" }, { flatRateDkk: 100 }, { agentAccess: "closed" }, { agentAccess: false }],
      async () => [await stored(), await auditCount(server)],
    );
  });
});
