// settings.get_policies through real HTTP: the four public policy texts, for catalog:read callers.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

describe("settings.get_policies", () => {
  it("returns the returns, shipping, privacy and terms texts", async () => {
    expect(expectOk(server, "settings.get_policies", await server.call("settings.get_policies", {}, { key }))).toEqual(DEFAULT_SETTINGS.policies);
  });

  it("reflects an update", async () => {
    const admin = await server.key("settings:write");
    expectOk(server, "settings.update_policies", await server.call("settings.update_policies", { terms: "Nye betingelser." }, { key: admin }));
    const result = expectOk<{ terms: string; returns: string }>(server, "settings.get_policies", await server.call("settings.get_policies", {}, { key }));
    expect(result.terms).toBe("Nye betingelser.");
    expect(result.returns).toBe(DEFAULT_SETTINGS.policies.returns);
  });

  it("needs catalog:read (a storefront-safe scope)", async () => {
    await expectScopeMatrix(server, "settings.get_policies", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "settings.get_policies", key, [{ lang: "da" }]);
  });
});
