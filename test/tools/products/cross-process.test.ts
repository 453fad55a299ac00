// Two server processes on one PostgreSQL database: a catalogue write through one is visible through the other within 1 s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk } from "../../support/expect.ts";
import { startPeerServer, startServer, type TestServer } from "../../support/server.ts";
import { poll } from "../../support/wait.ts";

const postgres = Boolean(process.env.TEST_DATABASE_URL);

let a: TestServer;
let b: TestServer;
let productKey: string;
let categoryKey: string;
beforeAll(async () => {
  if (!postgres) return;
  a = await startServer();
  b = await startPeerServer(a);
  productKey = await a.key("products:write");
  categoryKey = await a.key("categories:write");
});
afterAll(async () => {
  if (!postgres) return;
  await b.close();
  await a.close();
});

/** Polls `read` on the other server until `done` holds, for at most one second. */
const within1s = <T>(read: () => Promise<T>, done: (value: T) => boolean) => poll(read, done, 1000);

const searchOn = async (server: TestServer, input: object) =>
  expectOk<Array<{ slug: string; priceDkk: number; categoryName: string }>>(server, "products.search", await server.call("products.search", input));

describe.skipIf(!postgres)("catalogue read model across processes", () => {
  it("a product created through one server is found by search on the other", async () => {
    expect(await searchOn(b, { q: "tvilling" })).toEqual([]);
    expectOk(a, "products.create", await a.call("products.create", { name: "Tvilling Panto", slug: "tvilling-panto", description: "Et stel til test på to processer.", priceDkk: 50000, stock: 3, categorySlug: "briller" }, { key: productKey }));
    const hits = await within1s(() => searchOn(b, { q: "tvilling" }), (list) => list.length === 1);
    expect(hits.map((p) => p.slug)).toEqual(["tvilling-panto"]);
  });

  it("a price update and a delete through one server reach the other's products.get", async () => {
    expectOk(a, "products.update", await a.call("products.update", { slug: "gucci-oversize-bold-74", patch: { priceDkk: 77700 } }, { key: productKey }));
    const price = await within1s(async () => (await b.call("products.get", { slug: "gucci-oversize-bold-74" })).body.result as { priceDkk: number }, (p) => p.priceDkk === 77700);
    expect(price.priceDkk).toBe(77700);
    expectOk(a, "products.delete", await a.call("products.delete", { slug: "gucci-oversize-bold-74", confirm: true }, { key: productKey }));
    const status = await within1s(async () => (await b.call("products.get", { slug: "gucci-oversize-bold-74" })).status, (s) => s === 404);
    expect(status).toBe(404);
  });

  it("variant and answer changes through one server reach the other's cached product details", async () => {
    const key = await b.key("catalog:read");
    const slug = "oakley-aviator-coast-1";
    const variantsOn = async (server: TestServer) => expectOk<Array<{ sku: string; stock: number }>>(server, "products.list_variants", await server.call("products.list_variants", { slug }, { key }));
    const answersOn = async (server: TestServer) => expectOk<{ answerSummary: string | null }>(server, "products.get_answers", await server.call("products.get_answers", { slug }, { key }));
    const before = await variantsOn(b);
    await answersOn(b);
    expectOk(a, "products.upsert_variant", await a.call("products.upsert_variant", { slug, sku: "tvilling-xl", attributes: { size: "XL" }, stock: 4 }, { key: productKey }));
    const after = await within1s(() => variantsOn(b), (list) => list.length === before.length + 1);
    expect(after.at(-1)).toMatchObject({ sku: "tvilling-xl", stock: 4 });
    expectOk(a, "products.update", await a.call("products.update", { slug, patch: { answerSummary: "Opdateret på den anden proces." } }, { key: productKey }));
    const answers = await within1s(() => answersOn(b), (value) => value.answerSummary === "Opdateret på den anden proces.");
    expect(answers.answerSummary).toBe("Opdateret på den anden proces.");
  });

  it("a category rename through one server shows in the other's search summaries and categories.list", async () => {
    expectOk(a, "categories.upsert", await a.call("categories.upsert", { slug: "tilbehoer", name: "Tilbehør & pleje" }, { key: categoryKey }));
    const hits = await within1s(() => searchOn(b, { categorySlug: "tilbehoer", limit: 100 }), (list) => list.every((p) => p.categoryName === "Tilbehør & pleje"));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((p) => p.categoryName === "Tilbehør & pleje")).toBe(true);
    const categories = expectOk<Array<{ slug: string; name: string }>>(b, "categories.list", await b.call("categories.list", {}));
    expect(categories.find((c) => c.slug === "tilbehoer")!.name).toBe("Tilbehør & pleje");
  });
});
