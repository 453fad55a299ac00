// settings.get_sale_terms through real HTTP: the transfer account with its BIC (settings.update_sale_terms sets it).
import { describe, expect, it } from "vitest";
import { DEMO_BANK_ACCOUNT } from "../../../prisma/seed/demo.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { reader } } = useServer({ keys: { reader: ["settings:read"] } });

describe("settings.get_sale_terms", () => {
  it("answers the seeded account without a BIC", async () => {
    expect(expectOk(server, "settings.get_sale_terms", await server.call("settings.get_sale_terms", {}, { key: reader }))).toEqual({ bankAccount: { ...DEMO_BANK_ACCOUNT, bic: null }, freeShippingFrom: {}, returnDays: 14 });
  });

  it("needs settings:read and takes no input", async () => {
    await expectScopeMatrix(server, "settings.get_sale_terms", {});
    await expectRejected(server, "settings.get_sale_terms", reader, [{ bankAccount: null }]);
  });
});
