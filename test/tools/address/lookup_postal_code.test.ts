// address.lookup_postal_code through real HTTP: known codes, 404, bounds and scopes; plus the CSV parser.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { parseCsv, postalCodes } from "../../../src/tools/address/postal-codes.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const lookup = (zip: string) => server.call("address.lookup_postal_code", { zip }, { key });

describe("address.lookup_postal_code", () => {
  it("maps postal codes to their cities", async () => {
    expect(expectOk(server, "address.lookup_postal_code", await lookup("8000"))).toEqual({ zip: "8000", city: "Aarhus C" });
    expect(expectOk(server, "address.lookup_postal_code", await lookup("1160"))).toEqual({ zip: "1160", city: "København K" });
    expect(expectOk(server, "address.lookup_postal_code", await lookup("0800"))).toEqual({ zip: "0800", city: "Høje Taastrup" });
  });

  it("loads the whole PostNord table", () => {
    expect(postalCodes()).toHaveLength(1117);
    expect(new Set(postalCodes().map((p) => p.zip)).size).toBe(1117);
  });

  it("parses quoted CSV fields", () => {
    expect(parseCsv('a,b\r\n"1,2","say ""hi"""\n"multi\nline",x\n')).toEqual([["a", "b"], ["1,2", 'say "hi"'], ["multi\nline", "x"]]);
  });

  it("answers 404 for a code that does not exist", async () => {
    expectProblem(await lookup("0001"), 404, "not_found");
  });

  it("needs catalog:read", async () => {
    await expectScopeMatrix(server, "address.lookup_postal_code", { zip: "8000" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "address.lookup_postal_code", key, [{}, { zip: "800" }, { zip: "80000" }, { zip: "80a0" }, { zip: 8000 }, { zip: "8000", city: "Aarhus" }]);
  });
});
