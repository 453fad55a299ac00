// pages.list through real HTTP: every page (drafts too) by title, scopes, bad input.
import { describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["pages:read"] } });

describe("pages.list", () => {
  it("lists every page, drafts included, by title", async () => {
    const result = expectOk<Array<{ slug: string }>>(server, "pages.list", await server.call("pages.list", {}, { key }));
    const rows = await server.prisma.page.findMany();
    expect(result.map((p) => p.slug)).toEqual(["om-os", "returret", "vinterudsalg"]);
    const draft = rows.find((p) => p.slug === "vinterudsalg")!;
    expect(result[2]).toEqual({ id: draft.id, slug: "vinterudsalg", title: "Vinterudsalg", status: "draft", updatedAt: draft.updatedAt.toISOString() });
  });

  it("needs pages:read", async () => {
    await expectScopeMatrix(server, "pages.list", {});
  });

  it("takes an empty object and nothing else", async () => {
    await expectRejected(server, "pages.list", key, [{ status: "draft" }, { limit: 5 }]);
  });
});
