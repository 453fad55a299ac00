// Indstillinger → Kontakt → Bankkonto and → Vilkår → Returfrist over real HTTP: the owner types the account as the bank
// prints it (spaces, small letters), the shop stores it through settings.update_sale_terms, and the next bank-transfer
// order's payment page and e-mail show it with the BIC; bad numbers come back as Danish messages and change nothing;
// all fields empty removes it. The return period is set once and the returns page follows it.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { expectOk } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { ADDRESS, newSession, plainProducts } from "../../support/session.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer.bank@nordlys.dk");
});

const FORM = { bankName: "Danske Bank", regNo: "0040", accountNo: "0440 116 243", iban: "dk50 0040 0440 1162 43", bic: "dabadkkk" };

async function flash(page: { status: number; location: string | null }): Promise<string> {
  expect(page.status).toBe(303);
  expect(page.location).toBe("/admin/settings#bank");
  const next = await owner.get(page.location!);
  return /<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(next.html)?.[1]?.replace(/&#39;/g, "'") ?? "";
}

const terms = async () => (await server.runtime.database.prisma.setting.findMany({ where: { section: { in: ["contact", "bank_bic"] } }, orderBy: { section: "asc" } })).map((row) => row.value);

describe("the bank account form", () => {
  it("shows the stored account under Kontakt", async () => {
    const page = await owner.get("/admin/settings");
    expect(page.html).toContain('<h3 id="bank">Bankkonto til bankoverførsel</h3>');
    expect(page.html).toMatch(/name="iban" type="text" value="DK5912340012345678"/);
    expect(page.html).toContain('action="/admin/settings/bank"');
  });

  it("saves an account typed with spaces and small letters, and the payment page and e-mail show it with the BIC", async () => {
    expect(await flash(await owner.submit("/admin/settings", "/admin/settings/bank", FORM))).toBe("Bankkontoen er gemt.");
    const page = await owner.get("/admin/settings");
    expect(page.html).toMatch(/name="iban" type="text" value="DK5000400440116243"/);
    expect(page.html).toMatch(/name="bic" type="text" value="DABADKKK"/);

    const cookie = await newSession(server);
    const [product] = await plainProducts(server, 1);
    expectOk(server, "cart.add", await server.call("cart.add", { productSlug: product!.slug }, { cookie }));
    expectOk(server, "cart.set_shipping_address", await server.call("cart.set_shipping_address", ADDRESS, { cookie }));
    const placed = expectOk<{ paymentUrl: string }>(server, "cart.checkout", await server.call("cart.checkout", {}, { cookie }));
    const link = new URL(placed.paymentUrl);
    const pay = await (await fetch(`${server.url}${link.pathname}${link.search}`)).text();
    for (const row of ["<th scope=\"row\">Bank</th><td>Danske Bank</td>", "<th scope=\"row\">Kontonr.</th><td>0440116243</td>", "<th scope=\"row\">IBAN</th><td>DK5000400440116243</td>", "<th scope=\"row\">BIC (SWIFT)</th><td>DABADKKK</td>"]) {
      expect(pay).toContain(row);
    }
    const dir = path.join(server.runtime.config.dataDir, "outbox");
    const mails = fs.readdirSync(dir).sort().map((file) => fs.readFileSync(path.join(dir, file), "utf8").replace(/=\r?\n/g, ""));
    expect(mails.at(-1)).toContain("BIC (SWIFT): DABADKKK");
    expect(mails.at(-1)).toContain("IBAN: DK5000400440116243");
  });

  it("answers bad numbers in Danish and changes nothing", async () => {
    const before = await terms();
    const cases: Array<[Record<string, string>, string]> = [
      [{ regNo: "40" }, "Reg.nr.: skal være 4 cifre"],
      [{ accountNo: "04-40" }, "Kontonr.: skal være 4-10 cifre"],
      [{ iban: "DK51 0040 0440 1162 43" }, "IBAN: passer ikke (kontrolcifrene stemmer ikke); tjek nummeret"],
      [{ iban: "0040 0440 1162 43" }, "IBAN: skal være et IBAN"],
      [{ bic: "DABA" }, "BIC (SWIFT): skal være 8 eller 11 tegn, fx DABADKKK"],
      [{ bankName: "" }, "Bank: skal udfyldes"],
    ];
    for (const [change, message] of cases) {
      const said = await flash(await owner.submit("/admin/settings", "/admin/settings/bank", { ...FORM, ...change }));
      expect(said).toContain("Tjek felterne: ");
      expect(said).toContain(message);
    }
    expect(await terms()).toEqual(before);
  });

  it("removes the account when every field is empty", async () => {
    const said = await flash(await owner.submit("/admin/settings", "/admin/settings/bank", { bankName: "", regNo: "", accountNo: "", iban: "", bic: "" }));
    expect(said).toBe("Bankkontoen er fjernet. Kunder bedes nu kontakte jer for at betale.");
    expect((await owner.get("/admin/settings")).html).toContain("Uden konto bedes de kontakte jer.");
  });
});

describe("the return period form", () => {
  it("sets the days the return tools and pages follow, and refuses fewer than 14 in Danish", async () => {
    const page = await owner.submit("/admin/settings", "/admin/settings/return-days", { returnDays: "30" });
    expect(page.location).toBe("/admin/settings#return-days");
    const next = await owner.get(page.location!);
    expect(next.html).toContain("Returfristen er nu 30 dage fra levering.");
    expect(next.html).toMatch(/name="returnDays" type="text" value="30"/);
    expect((await owner.get("/admin/returns")).html).toContain("Fortrydelser (30 dage fra levering)");
    const refused = await owner.get((await owner.submit("/admin/settings", "/admin/settings/return-days", { returnDays: "10" })).location!);
    expect(refused.html).toContain("Returfrist: skal være mindst 14 (fortrydelsesretten)");
    expect(await server.runtime.database.prisma.setting.findUnique({ where: { section: "return_period" } })).toMatchObject({ value: { days: 30 } });
  });
});
