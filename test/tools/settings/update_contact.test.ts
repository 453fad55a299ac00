// settings.update_contact through real HTTP: e-mail, phone, CVR and bank-account formats, partial merge, audited Setting row.
import { describe, expect, it } from "vitest";
import { DEMO_BANK_ACCOUNT } from "../../../prisma/seed/demo.ts";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });

const stored = async () => (await server.prisma.setting.findUnique({ where: { section: "contact" } }))?.value;

describe("settings.update_contact", () => {
  it("merges the given fields and returns the full section", async () => {
    const result = expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { email: "hej@nordlys.dk", cvr: "87654321" }, { key }));
    const expected = { ...DEFAULT_SETTINGS.contact, bankAccount: DEMO_BANK_ACCOUNT, email: "hej@nordlys.dk", cvr: "87654321" };
    expect(result).toEqual(expected);
    expect(await stored()).toEqual(expected);
    expect(await lastAudit(server)).toMatchObject({ tool: "settings.update_contact", subjectType: "setting", subjectId: "contact", after: { value: expected } });
  });

  it("replaces the bank account as a whole, and null removes it", async () => {
    const account = { bankName: "Danske Bank", regNo: "0040", accountNo: "0440116243", iban: "DK5000400440116243" };
    expect(expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { bankAccount: account }, { key }))).toMatchObject({ bankAccount: account });
    expect(await stored()).toMatchObject({ bankAccount: account });
    expect(expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { bankAccount: null }, { key }))).toMatchObject({ bankAccount: null });
    expect(await stored()).toMatchObject({ bankAccount: null });
  });

  it("creates the row from the defaults when the section was never stored (audited with before null)", async () => {
    await server.prisma.setting.delete({ where: { section: "contact" } });
    const result = expectOk(server, "settings.update_contact", await server.call("settings.update_contact", { phone: "+45 11 22 33 44" }, { key }));
    expect(result).toEqual({ ...DEFAULT_SETTINGS.contact, phone: "+45 11 22 33 44" });
    expect(await lastAudit(server)).toMatchObject({ subjectId: "contact", before: null });
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_contact", { address: "Vestergade 1, 8000 Aarhus C" });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "settings.update_contact",
      key,
      [
        {}, { email: "not-an-email" }, { cvr: "1234" }, { cvr: "1234567a" }, { phone: "call us" }, { address: "" }, { email: null }, { fax: "123" },
        { bankAccount: { ...DEMO_BANK_ACCOUNT, iban: "DK5012340012345678" } },
        { bankAccount: { ...DEMO_BANK_ACCOUNT, iban: "dk59 1234 0012 3456 78" } },
        { bankAccount: { ...DEMO_BANK_ACCOUNT, regNo: "12345" } },
        { bankAccount: { ...DEMO_BANK_ACCOUNT, accountNo: "12-34" } },
        { bankAccount: { ...DEMO_BANK_ACCOUNT, swift: "DABADKKK" } },
        { bankAccount: { regNo: "1234" } },
      ],
      async () => [await stored(), await auditCount(server)],
    );
  });
});
