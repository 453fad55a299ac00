// gzip on the REST and MCP doors: cached catalogue answers go out gzip-encoded to clients whose Accept-Encoding takes
// it, and decode to exactly the plain answer (the MCP id included); other clients, tiny answers and uncached answers
// stay plain. Requests go through node:http, which (unlike fetch) hands over the bytes as sent.
import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, closeGzip, openGzip } from "../../src/http/gzip.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(payload);
  });
}

const GZIP = { "accept-encoding": "gzip, deflate" };
const rpc = (id: string | number, name: string, args: unknown, method = "tools/call") =>
  method === "tools/call" ? { jsonrpc: "2.0", id, method, params: { name, arguments: args } } : { jsonrpc: "2.0", id, method };

function expectGzip(raw: Raw, plain: Raw): void {
  expect(raw.status).toBe(200);
  expect(raw.headers["content-encoding"]).toBe("gzip");
  expect(raw.headers.vary).toMatch(/\bAccept-Encoding\b/);
  expect(Number(raw.headers["content-length"])).toBe(raw.bytes.length);
  expect(raw.bytes.length).toBeLessThan(plain.bytes.length / 2);
  expect(zlib.gunzipSync(raw.bytes).equals(plain.bytes)).toBe(true);
}

function expectPlain(raw: Raw): void {
  expect(raw.status).toBe(200);
  expect(raw.headers["content-encoding"]).toBeUndefined();
  expect(Number(raw.headers["content-length"])).toBe(raw.bytes.length);
  JSON.parse(raw.bytes.toString("utf8"));
}

describe("gzip through the HTTP doors", () => {
  it("REST: a cached answer goes out gzip-encoded to a gzip client, decoding to the plain answer; others get it plain", async () => {
    const path = "/api/v1/tools/products.search";
    const first = await post(path, {}, GZIP);
    expectPlain(first); // a miss is answered as computed; the entry is compressed at its first gzip hit
    expect(first.headers.vary).toBe("Accept-Encoding");
    const plain = await post(path, {});
    expectPlain(plain);
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.bytes.equals(first.bytes)).toBe(true);
    for (let i = 0; i < 2; i++) expectGzip(await post(path, {}, GZIP), plain);
    expect((await post(path, {})).bytes.equals(plain.bytes)).toBe(true);
    expect(await (await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).text()).toBe(
      plain.bytes.toString("utf8"),
    );
  });

  it("MCP: tools/call answers gzip-encoded with each request's own id, decoding to exactly the plain answer", async () => {
    const args = { categorySlug: "solbriller", limit: 10 };
    await post("/api/mcp", rpc(1, "products.search", args), GZIP);
    for (const id of [7, "abc", "ø \"quoted\" \\ \u2028 id", 2 ** 40, "x".repeat(70_000)]) {
      const plain = await post("/api/mcp", rpc(id, "products.search", args));
      expectPlain(plain);
      expect(plain.headers.vary).toBe("Origin, Accept-Encoding");
      expect(JSON.parse(plain.bytes.toString("utf8")).id).toBe(id);
      const gzipped = await post("/api/mcp", rpc(id, "products.search", args), GZIP);
      if (typeof id === "string" && id.length > 0xffff) {
        // A tail longer than one stored block: sent plain rather than compressed per request.
        expect(gzipped.bytes.equals(plain.bytes)).toBe(true);
        continue;
      }
      expectGzip(gzipped, plain);
      expect(gzipped.headers.vary).toBe("Origin, Accept-Encoding");
    }
  });

  it("REST and MCP gzip answers of the same call decode to the same result", async () => {
    const rest = await post("/api/v1/tools/categories.list", {}, GZIP);
    const mcp = await post("/api/mcp", rpc(1, "categories.list", {}), GZIP);
    const [restAgain, mcpAgain] = [await post("/api/v1/tools/categories.list", {}, GZIP), await post("/api/mcp", rpc(1, "categories.list", {}), GZIP)];
    expect([rest.headers["content-encoding"], mcp.headers["content-encoding"]]).toEqual([undefined, undefined]);
    expect([restAgain.headers["content-encoding"], mcpAgain.headers["content-encoding"]]).toEqual(["gzip", "gzip"]);
    const restBody = JSON.parse(zlib.gunzipSync(restAgain.bytes).toString("utf8"));
    const mcpBody = JSON.parse(zlib.gunzipSync(mcpAgain.bytes).toString("utf8"));
    expect(mcpBody.result.structuredContent).toEqual({ result: restBody.result });
    expect(JSON.parse(mcpBody.result.content[0].text)).toEqual({ result: restBody.result });
  });

  it("follows the Accept-Encoding weights", async () => {
    const path = "/api/v1/tools/products.search";
    await post(path, { q: "aviator" });
    for (const header of ["gzip", "GZIP;q=0.5", "deflate, x-gzip", "*", "br;q=1, *;q=0.1"]) {
      expect((await post(path, { q: "aviator" }, { "accept-encoding": header })).headers["content-encoding"], header).toBe("gzip");
    }
    for (const header of ["identity", "gzip;q=0", "deflate, br", "*;q=0", "gzip;q=0, *"]) {
      expectPlain(await post(path, { q: "aviator" }, { "accept-encoding": header }));
    }
  });

  it("leaves tiny answers, uncached answers and refusals plain, without Vary: Accept-Encoding", async () => {
    const tiny = { q: "ingen-vare-hedder-sådan" };
    for (let i = 0; i < 2; i++) {
      const rest = await post("/api/v1/tools/products.search", tiny, GZIP);
      expectPlain(rest);
      expect(rest.bytes.length).toBeLessThan(1024);
      expect(rest.headers.vary).toBeUndefined();
      const mcp = await post("/api/mcp", rpc(1, "products.search", tiny), GZIP);
      expectPlain(mcp);
      expect(mcp.headers.vary).toBe("Origin");
    }
    const key = await server.key("*");
    for (let i = 0; i < 2; i++) {
      const listing = await post("/api/mcp", rpc(1, "", null, "tools/list"), { ...GZIP, authorization: `Bearer ${key}` });
      expectPlain(listing);
      expect(listing.bytes.length).toBeGreaterThan(1024);
      expect(listing.headers.vary).toBe("Origin");
      const refused = await post("/api/v1/tools/products.search", { limit: "ten" }, GZIP);
      expect(refused.status).toBe(400);
      expect(refused.headers["content-encoding"]).toBeUndefined();
    }
  });
});

describe("the gzip pieces", () => {
  it("close one deflated answer behind any tail as a valid gzip member, or refuse what does not pay", () => {
    const plain = Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Vare ${i} æøå` })) }));
    const open = openGzip(plain)!;
    expect(open.size).toBe(plain.length);
    for (const tail of [undefined, "", ',"id":1}', `,"id":"${"ø".repeat(40)}"}`, "x".repeat(0xffff)].map((text) => text === undefined ? undefined : Buffer.from(text))) {
      const member = closeGzip(open, tail)!;
      expect(zlib.gunzipSync(member).equals(Buffer.concat([plain, tail ?? Buffer.alloc(0)]))).toBe(true);
    }
    expect(closeGzip(open, Buffer.from("ø".repeat(0x8000)))).toBeUndefined();
    expect(openGzip(crypto.randomBytes(2000))).toBeUndefined();
  });

  it("read Accept-Encoding as RFC 9110 does", () => {
    expect(acceptsGzip("gzip, deflate")).toBe(true);
    expect(acceptsGzip("gzip;q=0.001")).toBe(true);
    expect(acceptsGzip(" Gzip ; Q=1 ")).toBe(true);
    expect(acceptsGzip("gzip;q=0.000")).toBe(false);
    expect(acceptsGzip("*;q=0, gzip")).toBe(true);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip(["gzip"])).toBe(false);
  });
});
