// settings.update_sale_terms through real HTTP: the transfer account with its BIC, kept in
// step with the contact section's account (settings.get keeps its shape), audited, and bad input refused.
import { describe, expect, it } from "vitest";
import { DEMO_BANK_ACCOUNT } from "../../../prisma/seed/demo.ts";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { reader, writer } } = useServer({ keys: { reader: ["settings:read"], writer: ["settings:write", "settings:read"] } });

const DANSKE = { bankName: "Danske Bank", regNo: "0040", accountNo: "0440116243", iban: "DK5000400440116243", bic: "DABADKKK" };
const rows = async () => server.runtime.database.prisma.setting.findMany({ where: { section: { in: ["contact", "bank_bic"] } }, orderBy: { section: "asc" } });

describe("settings.update_sale_terms", () => {
  it("stores the account whole with its BIC; settings.get shows it without the BIC", async () => {
    const result = expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { bankAccount: DANSKE }, { key: writer }));
    expect(result).toEqual({ bankAccount: DANSKE });
    expect(expectOk(server, "settings.get_sale_terms", await server.call("settings.get_sale_terms", {}, { key: reader }))).toEqual({ bankAccount: DANSKE });
    const { bic: _bic, ...fields } = DANSKE;
    const settings = expectOk<{ contact: { bankAccount: unknown } }>(server, "settings.get", await server.call("settings.get", {}, { key: reader }));
    expect(settings.contact.bankAccount).toEqual(fields);
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_sale_terms", subjectType: "setting", subjectId: "bank_bic" });
  });

  it("drops the BIC when settings.update_contact puts another account in its place", async () => {
    await server.call("settings.update_sale_terms", { bankAccount: DANSKE }, { key: writer });
    expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { bankAccount: DEMO_BANK_ACCOUNT }, { key: writer }));
    expect(expectOk(server, "settings.get_sale_terms", await server.call("settings.get_sale_terms", {}, { key: reader }))).toEqual({ bankAccount: { ...DEMO_BANK_ACCOUNT, bic: null } });
  });

  it("keeps an account without a BIC, and null removes the account", async () => {
    expect(expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { bankAccount: { ...DANSKE, bic: null } }, { key: writer }))).toEqual({ bankAccount: { ...DANSKE, bic: null } });
    expect(expectOk(server, "settings.update_sale_terms", await server.call("settings.update_sale_terms", { bankAccount: null }, { key: writer }))).toEqual({ bankAccount: null });
    const settings = expectOk<{ contact: { bankAccount: unknown } }>(server, "settings.get", await server.call("settings.get", {}, { key: reader }));
    expect(settings.contact.bankAccount).toBeNull();
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
        { bankAccount: { ...DANSKE, bankName: "" } }, { bankAccount: { ...DANSKE, swift: "DABADKKK" } }, { bankAccount: DANSKE, returnDays: 30 },
      ],
      async () => [await rows(), await auditCount(server)],
    );
  });
});
