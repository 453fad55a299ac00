// images.upload through real HTTP: stores sniffed JPEG/PNG/WebP/AVIF in the database, audited once; refusals and scopes.
import crypto from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { auditCount, expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });

const upload = (input: object) => server.call("images.upload", input, { key });
const picture = (width: number, height: number, format: "png" | "jpeg" | "webp" | "avif" | "gif", seed = 10) =>
  sharp({ create: { width, height, channels: 3, background: { r: seed, g: 120, b: 200 } } }).toFormat(format).toBuffer();
const images = () => server.prisma.storedImage.count();

describe("images.upload", () => {
  it("stores a PNG under its SHA-256 and answers its absolute URL and size", async () => {
    const bytes = await picture(640, 480, "png");
    const result = expectOk<{ url: string; width: number; height: number }>(server, "images.upload", await upload({ data: bytes.toString("base64"), contentType: "image/png", filename: "front.png" }));
    expect(result).toEqual({ url: expect.stringMatching(new RegExp(`^${server.runtime.config.publicBaseUrl}/images/[0-9a-f]{64}\\.png$`)), width: 640, height: 480 });
    const id = /\/images\/([0-9a-f]{64})\./.exec(result.url)![1]!;
    const row = await server.prisma.storedImage.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ contentType: "image/png", width: 640, height: 480 });
    expect(Buffer.from(row.bytes).equals(bytes)).toBe(true);
    expect(await lastAudit(server)).toMatchObject({ tool: "images.upload", subjectType: "image", subjectId: id });
  });

  it("is idempotent: the same bytes again are the same URL, with no second row or audit entry", async () => {
    const data = (await picture(50, 50, "png", 77)).toString("base64");
    const first = expectOk<{ url: string }>(server, "images.upload", await upload({ data, contentType: "image/png" }));
    const [rows, audits] = [await images(), await auditCount(server)];
    const again = expectOk<{ url: string }>(server, "images.upload", await upload({ data, contentType: "image/png" }));
    expect(again.url).toBe(first.url);
    expect([await images(), await auditCount(server)]).toEqual([rows, audits]);
  });

  it("trusts the bytes, not the declared type: JPEG, WebP and AVIF are recognised whatever contentType says", async () => {
    for (const [format, ext] of [["jpeg", "jpg"], ["webp", "webp"], ["avif", "avif"]] as const) {
      const data = (await picture(30, 20, format)).toString("base64");
      const result = expectOk<{ url: string; width: number }>(server, "images.upload", await upload({ data, contentType: "image/png" }));
      expect(result.url.endsWith(`.${ext}`), result.url).toBe(true);
      expect(result.width).toBe(30);
    }
  });

  it("refuses other formats 422 unsupported_image and undecodable data 422 invalid_image, storing nothing", async () => {
    const before = [await images(), await auditCount(server)];
    expectProblem(await upload({ data: (await picture(10, 10, "gif")).toString("base64"), contentType: "image/png" }), 422, "unsupported_image");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    expectProblem(await upload({ data: svg.toString("base64"), contentType: "image/svg+xml" }), 422, "unsupported_image");
    expectProblem(await upload({ data: Buffer.from("just some text, not an image").toString("base64"), contentType: "image/png" }), 422, "invalid_image");
    const truncated = (await picture(100, 100, "png")).subarray(0, 40);
    expectProblem(await upload({ data: truncated.toString("base64"), contentType: "image/png" }), 422, "invalid_image");
    expect([await images(), await auditCount(server)]).toEqual(before);
  });

  it("decodes the whole image: one cut off after its header is 422 invalid_image, and so is one over 50 megapixels", async () => {
    const before = [await images(), await auditCount(server)];
    const noise = crypto.randomBytes(200 * 150 * 3);
    for (const format of ["png", "jpeg"] as const) {
      const whole = await sharp(noise, { raw: { width: 200, height: 150, channels: 3 } }).toFormat(format).toBuffer();
      const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
      // The header still reads: only decoding every pixel finds the image incomplete.
      expect((await sharp(cut).metadata()).width, format).toBe(200);
      expectProblem(await upload({ data: cut.toString("base64"), contentType: `image/${format}` }), 422, "invalid_image");
    }
    const huge = await sharp({ create: { width: 7100, height: 7100, channels: 3, background: "white" } }).png({ compressionLevel: 1 }).toBuffer();
    const refused = await upload({ data: huge.toString("base64"), contentType: "image/png" });
    expectProblem(refused, 422, "invalid_image");
    expect(refused.body.detail).toMatch(/megapixels/);
    expect([await images(), await auditCount(server)]).toEqual(before);
  });

  it("refuses an image over 8 MB decoded with 413, and a body over the door's 12 MB limit with 413 too", async () => {
    const before = await images();
    const big = Buffer.alloc(8 * 1024 * 1024 + 1, 7);
    expectProblem(await upload({ data: big.toString("base64"), contentType: "image/png" }), 413, "payload_too_large");
    const huge = Buffer.alloc(9_500_000, 7);
    expectProblem(await upload({ data: huge.toString("base64"), contentType: "image/png" }), 413, "payload_too_large");
    expect(await images()).toBe(before);
  });

  it("keeps the 256 KB body limit for every other tool", async () => {
    expectProblem(await server.call("products.search", { query: "x".repeat(300_000) }, { key }), 413, "payload_too_large");
  });

  it("rejects bad input with 400 and stores nothing", async () => {
    const data = (await picture(10, 10, "png")).toString("base64");
    await expectRejected(server, "images.upload", key, [
      { contentType: "image/png" },
      { data, },
      { data: "", contentType: "image/png" },
      { data: "not base64 !!", contentType: "image/png" },
      { data: "abc", contentType: "image/png" },
      { data: "ab=c", contentType: "image/png" },
      { data, contentType: "" },
      { data, contentType: "image/png", filename: "x".repeat(201) },
      { data, contentType: "image/png", url: "https://example.com/a.png" },
    ], async () => [await images(), await auditCount(server)]);
  });

  it("checks scopes", async () => {
    await expectScopeMatrix(server, "images.upload", { data: (await picture(12, 12, "png", 3)).toString("base64"), contentType: "image/png" });
  });
});
