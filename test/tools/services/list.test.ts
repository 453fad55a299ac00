// services.list through real HTTP: drafts included, navOrder-then-title order, status filter, limit, scopes, bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Summary = { slug: string; title: string; status: string; navOrder: number; publicUrl: string; priceString: string | null; shortDescription: string | null };

const { server, keys: { key } } = useServer({ keys: { key: ["pages:read"] } });
beforeAll(async () => {
  const write = await server.key("pages:write");
  for (const [title, navOrder] of [["Bøjlejustering", 2], ["Afhentning", 2], ["Førsteprioritet", -1]] as const) {
    expectOk(server, "services.create", await server.call("services.create", { title, body: "Tekst.", navOrder }, { key: write }));
  }
});

const list = async (input: object) => expectOk<Summary[]>(server, "services.list", await server.call("services.list", input, { key }));

describe("services.list", () => {
  it("lists every offering, drafts included, by navOrder then title", async () => {
    const result = await list({});
    expect(result.map((s) => s.slug)).toEqual([
      "foersteprioritet",
      "synsproeve",
      "afhentning",
      "boejlejustering",
      "kontaktlinsetilpasning",
      "brilleservice",
    ]);
    expect(result.find((s) => s.slug === "synsproeve")).toEqual({
      id: expect.any(String),
      slug: "synsproeve",
      title: "Synsprøve",
      shortDescription: "Gratis synsprøve ved køb af briller.",
      priceString: "Gratis",
      status: "published",
      showInNav: true,
      navOrder: 1,
      publicUrl: `${server.runtime.config.publicBaseUrl}/services/synsproeve`,
      updatedAt: expect.any(String),
    });
  });

  it("filters by status and honours limit", async () => {
    expect((await list({ status: "draft" })).map((s) => s.slug)).toEqual(["brilleservice"]);
    const published = await list({ status: "published" });
    expect(published).toHaveLength(5);
    expect(published.every((s) => s.status === "published")).toBe(true);
    expect((await list({ limit: 2 })).map((s) => s.slug)).toEqual(["foersteprioritet", "synsproeve"]);
  });

  it("needs pages:read", async () => {
    await expectScopeMatrix(server, "services.list", {});
  });

  it("rejects bad input with 400", async () => {
    await expectRejected(server, "services.list", key, [
      { status: "archived" },
      { status: 1 },
      { limit: 0 },
      { limit: 101 },
      { limit: 2.5 },
      { unknown: true },
    ]);
  });
});
