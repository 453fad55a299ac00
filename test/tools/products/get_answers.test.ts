// products.get_answers through real HTTP: answer-engine content, empty defaults, updates visible at once, 404s.
import { describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Answers = { slug: string; name: string; answerSummary: string | null; faq: Array<{ q: string; a: string }>; useCases: unknown[]; comparisonFacts: Record<string, string>; attributes: Record<string, string>; giftCard: boolean };

const { server, keys: { key } } = useServer({ keys: { key: ["catalog:read"] } });

const answers = (slug: string) => server.call("products.get_answers", { slug }, { key });

describe("products.get_answers", () => {
  it("returns the summary, FAQ, use cases, comparison facts and attributes", async () => {
    const result = expectOk<Answers>(server, "products.get_answers", await answers("oakley-aviator-coast-1"));
    expect(result.slug).toBe("oakley-aviator-coast-1");
    expect(result.answerSummary).toMatch(/Oakley Aviator Coast 1/);
    expect(result.faq.length).toBeGreaterThan(0);
    expect(result.useCases.length).toBeGreaterThan(0);
    expect(Object.keys(result.comparisonFacts)).toEqual(expect.arrayContaining(["vægt", "garanti"]));
    expect(result.attributes).toHaveProperty("shape");
    expect(result.giftCard).toBe(false);
  });

  it("tells a gift card, and a product made one with products.update at once", async () => {
    expect(expectOk<Answers>(server, "products.get_answers", await answers("gavekort-500-kr")).giftCard).toBe(true);
    const writer = await server.key("products:write");
    expectOk(server, "products.update", await server.call("products.update", { slug: "oakley-aviator-coast-1", patch: { giftCard: true } }, { key: writer }));
    expect(expectOk<Answers>(server, "products.get_answers", await answers("oakley-aviator-coast-1")).giftCard).toBe(true);
    expectOk(server, "products.update", await server.call("products.update", { slug: "oakley-aviator-coast-1", patch: { giftCard: false } }, { key: writer }));
    expect(expectOk<Answers>(server, "products.get_answers", await answers("oakley-aviator-coast-1")).giftCard).toBe(false);
  });

  it("returns null and empty collections for a product without content, and reflects products.update at once", async () => {
    const slug = "vogue-clubmaster-sommer-2";
    expect(expectOk<Answers>(server, "products.get_answers", await answers(slug))).toMatchObject({ answerSummary: null, faq: [], useCases: [], comparisonFacts: {} });
    const writer = await server.key("products:write");
    expectOk(server, "products.update", await server.call("products.update", { slug, patch: { answerSummary: "Klassisk clubmaster.", faq: [{ q: "Passer den?", a: "Ja." }] } }, { key: writer }));
    expect(expectOk<Answers>(server, "products.get_answers", await answers(slug))).toMatchObject({ answerSummary: "Klassisk clubmaster.", faq: [{ q: "Passer den?", a: "Ja." }] });
  });

  it("answers 404 for unknown and soft-deleted products", async () => {
    expectProblem(await answers("no-such-product"), 404, "not_found");
    expectProblem(await answers("ray-ban-multifocal-studio-27"), 404, "not_found");
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "products.get_answers", { slug: "oakley-aviator-coast-1" });
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "products.get_answers", key, [{}, { slug: "" }, { slug: null }, { slug: "oakley-aviator-coast-1", lang: "da" }]);
  });
});
