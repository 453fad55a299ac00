// settings.update_policies through real HTTP: replace some policy texts, keep the rest, audited Setting row.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../src/tools/settings/defaults.ts";
import { auditCount, expectOk, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["settings:write"] } });

const stored = async () => (await server.prisma.setting.findUniqueOrThrow({ where: { section: "policies" } })).value;

describe("settings.update_policies", () => {
  it("replaces the given texts and returns all four", async () => {
    const input = { returns: "14 dages returret.", privacy: "Vi gemmer intet." };
    const result = expectOk(server, "settings.update_policies", await server.call("settings.update_policies", input, { key }));
    expect(result).toEqual({ ...DEFAULT_SETTINGS.policies, ...input });
    expect(await stored()).toEqual({ ...DEFAULT_SETTINGS.policies, ...input });
    expect(await lastAudit(server)).toMatchObject({ subjectType: "setting", subjectId: "policies", before: { value: DEFAULT_SETTINGS.policies } });
  });

  it("needs settings:write", async () => {
    await expectScopeMatrix(server, "settings.update_policies", { terms: "Betingelser." });
  });

  it("rejects bad input and writes nothing", async () => {
    await expectRejected(
      server,
      "settings.update_policies",
      key,
      [{}, { returns: "" }, { terms: "x".repeat(20001) }, { shipping: 42 }, { cookies: "Vi bruger cookies." }],
      async () => [await stored(), await auditCount(server)],
    );
  });
});
