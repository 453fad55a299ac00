// settings.update_branding through real HTTP: partial merge, null logo, colour and URL formats, audited Setting row.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });

const stored = async () => (await server.prisma.setting.findUniqueOrThrow({ where: { section: "branding" } })).value;
const update = async (input: object) => expectOk(server, "settings.update_branding", await server.call("settings.update_branding", input, { key }));

describe("settings.update_branding", () => {
  it("merges the given fields and returns the full section", async () => {
    const expected = { ...DEFAULT_SETTINGS.branding, shopName: "Nordlys Briller", logoUrl: "https://cdn.example.com/logo.png", accentColor: "#AABBCC" };
    expect(await update({ shopName: "Nordlys Briller", logoUrl: "https://cdn.example.com/logo.png", accentColor: "#AABBCC" })).toEqual(expected);
    expect(await stored()).toEqual(expected);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "settings.update_branding", subjectType: "setting", subjectId: "branding" });
    expect(entry!.before).toMatchObject({ section: "branding", value: DEFAULT_SETTINGS.branding });
    expect(entry!.after).toMatchObject({ section: "branding", value: expected, updatedAt: expect.any(String) });
  });

  it("removes the logo with null and keeps the rest", async () => {
    expect(await update({ logoUrl: null })).toMatchObject({ logoUrl: null, shopName: "Nordlys Briller" });
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_branding", { tagline: "Matrix" });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "settings.update_branding",
      key,
      [
        {},
        { primaryColor: "blue" },
        { primaryColor: "#12345" },
        { accentColor: "#GGGGGG" },
        { logoUrl: "ftp://example.com/logo.png" },
        { logoUrl: "not a url" },
        { shopName: "" },
        { shopName: "x".repeat(101) },
        { tagline: 5 },
        { favicon: "https://example.com/f.ico" },
      ],
      async () => [await stored(), await auditCount(server)],
    );
  });
});
