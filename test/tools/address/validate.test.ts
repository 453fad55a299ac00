// address.validate through real HTTP: postal code exists and matches the city, normalised form, problems listed.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Check = { valid: boolean; normalized: { address: string; zip: string; city: string } | null; problems: string[] };

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const check = async (input: object) => expectOk<Check>(server, "address.validate", await server.call("address.validate", input, { key }));

describe("address.validate", () => {
  it("accepts a matching city regardless of case and spacing, and normalises it", async () => {
    expect(await check({ address: "  Strøget   12, 2. th. ", zip: " 1160", city: "KØBENHAVN   k" })).toEqual({
      valid: true,
      normalized: { address: "Strøget 12, 2. th.", zip: "1160", city: "København K" },
      problems: [],
    });
  });

  it("reports a city that does not belong to the postal code", async () => {
    const result = await check({ address: "Vestergade 3", zip: "8000", city: "Odense C" });
    expect(result.valid).toBe(false);
    expect(result.normalized).toBeNull();
    expect(result.problems).toEqual([expect.stringContaining("Aarhus C")]);
  });

  it("reports unknown and malformed postal codes and a missing street", async () => {
    expect((await check({ address: "Vej 1", zip: "0001", city: "X" })).problems).toEqual([expect.stringContaining("does not exist")]);
    expect((await check({ address: "Vej 1", zip: "12a4", city: "X" })).problems).toEqual([expect.stringContaining("4 digits")]);
    const empty = await check({ address: " ", zip: "8000", city: "Aarhus C" });
    expect(empty).toMatchObject({ valid: false, normalized: null });
    expect(empty.problems).toHaveLength(1);
  });

  it("needs catalog:read", async () => {
    await expectScopeMatrix(server, "address.validate", { address: "Strøget 12", zip: "1160", city: "København K" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "address.validate", key, [{}, { address: "Vej 1", zip: "8000" }, { address: 1, zip: "8000", city: "Aarhus" }, { address: "x".repeat(201), zip: "8000", city: "Aarhus C" }, { address: "Vej 1", zip: "8000", city: "Aarhus C", country: "DK" }]);
  });
});
