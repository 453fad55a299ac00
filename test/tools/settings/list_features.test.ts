// settings.list_features through real HTTP: every flag with its state, sorted by key.
import { describe, expect, it } from "vitest";
import { DEFAULT_FEATURES } from "../../../src/tools/settings/defaults.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Flag = { key: string; enabled: boolean; description: string; updatedAt: string };

const { server, keys: { key } } = useServer({ keys: { key: ["features:read"] } });

describe("settings.list_features", () => {
  it("lists every flag by key with enabled, description and updatedAt", async () => {
    const flags = expectOk<Flag[]>(server, "settings.list_features", await server.call("settings.list_features", {}, { key }));
    expect(flags.map((f) => f.key)).toEqual(DEFAULT_FEATURES.map((f) => f.key).sort());
    for (const flag of DEFAULT_FEATURES) {
      expect(flags.find((f) => f.key === flag.key)).toMatchObject({ enabled: flag.enabled, description: flag.description });
    }
    // Retired: whether agents may buy is the commerce setting's agentAccess, the one switch.
    expect(flags.map((f) => f.key)).not.toContain("agent_checkout");
  });

  it("needs features:read", async () => {
    await expectScopeMatrix(server, "settings.list_features", {});
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "settings.list_features", key, [{ enabled: true }]);
  });
});
