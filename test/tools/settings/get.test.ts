// settings.get through real HTTP: all four sections of the seeded settings document.
import { describe, expect, it } from "vitest";
import { DEMO_BANK_ACCOUNT } from "../../../prisma/seed/demo.ts";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:read"] } });

describe("settings.get", () => {
  it("returns branding, shipping, contact and policies as stored", async () => {
    const result = expectOk(server, "settings.get", await server.call("settings.get", {}, { key }));
    expect(result).toEqual({ ...DEFAULT_SETTINGS, contact: { ...DEFAULT_SETTINGS.contact, bankAccount: DEMO_BANK_ACCOUNT } });
  });

  it("reads a section that was never stored as its default (no bank account: the demo's is never a fallback)", async () => {
    await server.prisma.setting.delete({ where: { section: "contact" } });
    const result = expectOk<{ contact: unknown }>(server, "settings.get", await server.call("settings.get", {}, { key }));
    expect(result.contact).toEqual(DEFAULT_SETTINGS.contact);
    expect(DEFAULT_SETTINGS.contact.bankAccount).toBeNull();
  });

  it("needs settings:read", async () => {
    await expectScopeMatrix(server, "settings.get", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "settings.get", key, [{ section: "branding" }]);
  });
});
