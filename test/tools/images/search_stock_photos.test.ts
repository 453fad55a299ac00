// images.search_stock_photos through real HTTP: the request sent to a local fake provider, result mapping, graceful degradation.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_CONFIGURED } from "../../../src/tools/images/unsplash.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

type Reply = (res: http.ServerResponse) => void;
const requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];
let reply: Reply;
let provider: http.Server;

const photo = (id: string, extra: object = {}) => ({
  id,
  description: null,
  alt_description: `black sunglasses ${id}`,
  width: 4000,
  height: 3000,
  urls: { raw: `https://images.unsplash.com/photo-${id}`, regular: `https://images.unsplash.com/photo-${id}?w=1080`, thumb: `https://images.unsplash.com/photo-${id}?w=200` },
  user: { name: "Ida Fotograf", links: { html: "https://unsplash.com/@ida" } },
  ...extra,
});
const json = (status: number, body: unknown): Reply => (res) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  provider = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    reply(res);
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
});
const { server, keys: { key } } = useServer({
  config: () => ({ stockPhotoAccessKey: "test-key", stockPhotoApiUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`, stockPhotoTimeoutMs: 500 }),
  keys: { key: ["products:write"] },
});
const { server: unconfigured } = useServer({ config: { stockPhotoAccessKey: undefined } });
afterAll(async () => {
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
});

type Result = { photos: Array<Record<string, unknown>>; notice: string | null };
const search = async (input: object, on = server, apiKey = key) => expectOk<Result>(on, "images.search_stock_photos", await on.call("images.search_stock_photos", input, { key: apiKey }));

describe("images.search_stock_photos with a provider key", () => {
  it("sends an authenticated search request and maps the photos", async () => {
    reply = json(200, { total: 2, total_pages: 1, results: [photo("abc", { description: "Solbriller på strand" }), photo("def")] });
    requests.length = 0;
    const result = await search({ query: "sunglasses & beach", perPage: 2, page: 3 });
    expect(requests).toHaveLength(1);
    const sent = new URL(requests[0]!.url, "http://x");
    expect(requests[0]!.method).toBe("GET");
    expect(sent.pathname).toBe("/search/photos");
    expect(Object.fromEntries(sent.searchParams)).toEqual({ query: "sunglasses & beach", per_page: "2", page: "3" });
    expect(requests[0]!.headers.authorization).toBe("Client-ID test-key");
    expect(requests[0]!.headers["accept-version"]).toBe("v1");
    expect(result).toEqual({
      notice: null,
      photos: [
        {
          id: "abc",
          description: "Solbriller på strand",
          url: "https://images.unsplash.com/photo-abc?w=1080",
          thumbUrl: "https://images.unsplash.com/photo-abc?w=200",
          width: 4000,
          height: 3000,
          photographer: "Ida Fotograf",
          photographerUrl: "https://unsplash.com/@ida",
          sourceId: "unsplash:abc",
        },
        expect.objectContaining({ id: "def", description: "black sunglasses def", sourceId: "unsplash:def" }),
      ],
    });
  });

  it("uses the defaults perPage 10 and page 1, and skips malformed or non-https photos", async () => {
    reply = json(200, { results: [photo("ok"), { id: "broken" }, photo("plain", { urls: { regular: "http://insecure.example/p.jpg", thumb: "http://insecure.example/t.jpg" } })] });
    requests.length = 0;
    const result = await search({ query: "glasses" });
    expect(Object.fromEntries(new URL(requests[0]!.url, "http://x").searchParams)).toEqual({ query: "glasses", per_page: "10", page: "1" });
    expect(result.photos.map((p) => p.id)).toEqual(["ok"]);
  });

  it("says so when nothing matched", async () => {
    reply = json(200, { total: 0, total_pages: 0, results: [] });
    const result = await search({ query: "zzzqqq" });
    expect(result.photos).toEqual([]);
    expect(result.notice).toMatch(/No stock photos matched "zzzqqq"/);
  });

  it("turns provider errors, unreadable answers and timeouts into an empty list with a notice", async () => {
    reply = json(403, { errors: ["Rate Limit Exceeded"] });
    expect(await search({ query: "a" })).toEqual({ photos: [], notice: expect.stringMatching(/refused the search \(HTTP 403\)/) });
    reply = json(500, { errors: ["boom"] });
    expect(await search({ query: "a" })).toEqual({ photos: [], notice: expect.stringMatching(/failed \(HTTP 500\)/) });
    reply = (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{not json");
    };
    expect(await search({ query: "a" })).toEqual({ photos: [], notice: expect.stringMatching(/unreadable/) });
    reply = () => undefined;
    expect(await search({ query: "a" })).toEqual({ photos: [], notice: expect.stringMatching(/did not answer within 0.5 s/) });
  });

  it("needs products:write", async () => {
    reply = json(200, { results: [] });
    await expectScopeMatrix(server, "images.search_stock_photos", { query: "sunglasses" });
  });

  it("rejects bad input with a 400 problem, without calling the provider", async () => {
    requests.length = 0;
    await expectRejected(server, "images.search_stock_photos", key, [
      {},
      { query: "" },
      { query: "   " },
      { query: "x".repeat(201) },
      { query: "a", perPage: 0 },
      { query: "a", perPage: 31 },
      { query: "a", page: 0 },
      { query: "a", page: 101 },
      { query: "a", page: 1.5 },
      { query: 5 },
      { query: "a", orientation: "landscape" },
    ]);
    expect(requests).toEqual([]);
  });
});

describe("images.search_stock_photos without a provider key", () => {
  it("answers 200 with no photos and a notice", async () => {
    const withoutKey = await unconfigured.key("products:write");
    requests.length = 0;
    expect(await search({ query: "sunglasses" }, unconfigured, withoutKey)).toEqual({ photos: [], notice: NOT_CONFIGURED });
    expect(requests).toEqual([]);
  });
});
