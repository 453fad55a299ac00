// products.compare through real HTTP: order kept, facts merged by key with nulls, distinct 2..4 slugs, 404s.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Comparison = {
  products: Array<{ slug: string; name: string; brand: string | null; priceDkk: number; stock: number; frameColor: string | null; lensColor: string | null; categorySlug: string }>;
  facts: Array<{ key: string; values: Record<string, string | null> }>;
};

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const compare = (slugs: unknown) => server.call("products.compare", { slugs }, { key });

describe("products.compare", () => {
  it("puts products side by side in the given order with facts merged by key", async () => {
    const slugs = ["persol-oversize-vinter-5", "gucci-oversize-bold-74", "oakley-aviator-coast-1"];
    const result = expectOk<Comparison>(server, "products.compare", await compare(slugs));
    expect(result.products.map((p) => p.slug)).toEqual(slugs);
    const detail = expectOk<{ priceDkk: number; stock: number; brand: string; frameColor: string }>(server, "products.get", await server.call("products.get", { slug: slugs[1] }));
    expect(result.products[1]).toMatchObject({ priceDkk: detail.priceDkk, stock: detail.stock, brand: detail.brand, frameColor: detail.frameColor, categorySlug: "briller" });
    const weight = result.facts.find((f) => f.key === "vægt")!;
    expect(Object.keys(weight.values)).toEqual(slugs);
    expect(weight.values["gucci-oversize-bold-74"]).toBeNull();
    expect(weight.values["persol-oversize-vinter-5"]).toMatch(/ g$/);
    expect(result.facts.map((f) => f.key)).toEqual(["vægt", "garanti", "materiale"]);
  });

  it("returns no facts when none of the products has any", async () => {
    const result = expectOk<Comparison>(server, "products.compare", await compare(["gucci-oversize-bold-74", "vogue-clubmaster-sommer-2"]));
    expect(result.facts).toEqual([]);
  });

  it("answers 404 when a slug is unknown or soft-deleted", async () => {
    expectProblem(await compare(["gucci-oversize-bold-74", "no-such-product"]), 404, "not_found");
    expectProblem(await compare(["gucci-oversize-bold-74", "gucci-cat-eye-classic-54"]), 404, "not_found");
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.compare", { slugs: ["gucci-oversize-bold-74", "oakley-aviator-coast-1"] });
  });

  it("rejects fewer than 2, more than 4 or repeated slugs", async () => {
    const s = ["oakley-aviator-coast-1", "gucci-oversize-bold-74", "persol-oversize-vinter-5", "prada-wayfarer-bold-9", "vogue-panto-slim-3"];
    await expectRejected(server, "products.compare", key, [
      { slugs: [s[0]] },
      { slugs: s },
      { slugs: [s[0], s[0]] },
      { slugs: [s[0], ""] },
      { slugs: "a,b" },
      {},
      { slugs: [s[0], s[1]], fields: ["price"] },
    ]);
  });
});
