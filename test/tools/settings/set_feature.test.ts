// settings.set_feature through real HTTP: switch a flag, audited; 404 for an unknown key.
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["features:write"] } });

const flag = (k: string) => server.prisma.featureFlag.findUniqueOrThrow({ where: { key: k } });

describe("settings.set_feature", () => {
  it("turns a flag on and off and audits the flag row", async () => {
    const on = expectOk(server, "settings.set_feature", await server.call("settings.set_feature", { key: "product_reviews", enabled: true }, { key }));
    expect(on).toMatchObject({ key: "product_reviews", enabled: true, description: expect.any(String) });
    expect((await flag("product_reviews")).enabled).toBe(true);
    expect(await lastAudit(server)).toMatchObject({
      tool: "settings.set_feature",
      subjectType: "featureFlag",
      subjectId: "product_reviews",
      before: { key: "product_reviews", enabled: false },
      after: { key: "product_reviews", enabled: true },
    });
    expectOk(server, "settings.set_feature", await server.call("settings.set_feature", { key: "product_reviews", enabled: false }, { key }));
    expect((await flag("product_reviews")).enabled).toBe(false);
  });

  it("knows no agent_checkout flag: agent checkouts are settings.update_commerce's agentAccess (404, nothing written)", async () => {
    const before = await auditCount(server);
    const retired = await server.call("settings.set_feature", { key: "agent_checkout", enabled: true }, { key });
    expectProblem(retired, 404, "not_found");
    expect(await server.prisma.featureFlag.findUnique({ where: { key: "agent_checkout" } })).toBeNull();
    expect(await auditCount(server)).toBe(before);
  });

  it("answers 404 for an unknown key and creates nothing", async () => {
    const before = await auditCount(server);
    expectProblem(await server.call("settings.set_feature", { key: "teleportation", enabled: true }, { key }), 404, "not_found");
    expect(await server.prisma.featureFlag.findUnique({ where: { key: "teleportation" } })).toBeNull();
    expect(await auditCount(server)).toBe(before);
  });

  it("needs features:write", async () => {
    await expectScopeMatrix(server, "settings.set_feature", { key: "newsletter", enabled: true });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "settings.set_feature", key, [
      {},
      { key: "newsletter" },
      { enabled: true },
      { key: "", enabled: true },
      { key: "newsletter", enabled: "on" },
      { key: "newsletter", enabled: true, description: "x" },
    ]);
  });
});
