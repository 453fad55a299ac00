// discounts.toggle through real HTTP: set or flip the active state, audited; 404 for unknown codes.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["discounts:write"] } });

const toggle = async (input: object) => expectOk<{ code: string; active: boolean }>(server, "discounts.toggle", await server.call("discounts.toggle", input, { key }));
const active = async () => (await server.prisma.discount.findUniqueOrThrow({ where: { code: "VELKOMMEN10" } })).active;

describe("discounts.toggle", () => {
  it("flips the state when active is omitted", async () => {
    expect(await toggle({ code: "velkommen10" })).toEqual({ code: "VELKOMMEN10", active: false });
    expect(await active()).toBe(false);
    expect(await toggle({ code: "VELKOMMEN10" })).toEqual({ code: "VELKOMMEN10", active: true });
    expect(await active()).toBe(true);
  });

  it("sets the given state, repeatedly", async () => {
    expect(await toggle({ code: "VELKOMMEN10", active: false })).toEqual({ code: "VELKOMMEN10", active: false });
    expect(await toggle({ code: "VELKOMMEN10", active: false })).toEqual({ code: "VELKOMMEN10", active: false });
    expect(await active()).toBe(false);
    const entry = await lastAudit(server);
    expect(entry).toMatchObject({ tool: "discounts.toggle", subjectType: "discount", before: { code: "VELKOMMEN10", active: false }, after: { active: false } });
    expect(await toggle({ code: "VELKOMMEN10", active: true })).toEqual({ code: "VELKOMMEN10", active: true });
    expect((await lastAudit(server))!.before).toMatchObject({ active: false });
  });

  it("answers 404 for an unknown code", async () => {
    expectProblem(await server.call("discounts.toggle", { code: "UKENDT" }, { key }), 404, "not_found");
  });

  it("needs discounts:write", async () => {
    await expectScopeMatrix(server, "discounts.toggle", { code: "SOMMER200", active: true });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "discounts.toggle", key, [{}, { code: "" }, { code: "SOMMER200", active: "no" }, { code: "SOMMER200", other: 1 }]);
  });
});
