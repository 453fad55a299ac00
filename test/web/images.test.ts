// GET /images/<hash>.<ext>: uploaded images served from the database, originals and resized WebP, immutable caching.
import crypto from "node:crypto";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { expectOk } from "../support/expect.ts";
import { startPeerServer, useServer } from "../support/server.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["products:write"] } });
const postgres = Boolean(process.env.TEST_DATABASE_URL);

async function uploaded(width: number, height: number, seed = 1): Promise<{ url: string; path: string; id: string; bytes: Buffer }> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: seed, g: 90, b: 30 } } }).jpeg().toBuffer();
  const { url } = expectOk<{ url: string }>(server, "images.upload", await server.call("images.upload", { data: bytes.toString("base64"), contentType: "image/jpeg" }, { key }));
  const path = new URL(url).pathname;
  return { url, path, id: /([0-9a-f]{64})/.exec(path)![1]!, bytes };
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

describe("GET /images", () => {
  it("serves the original bytes with its type and immutable cache headers", async () => {
    const image = await uploaded(300, 200);
    const response = await get(image.path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("etag")).toBe(`"${image.id}-o"`);
    expect(Buffer.from(await response.arrayBuffer()).equals(image.bytes)).toBe(true);
  });

  it("resizes to the asked width as WebP once, keeping the rendition in the database; never upscales", async () => {
    const image = await uploaded(2000, 1000, 2);
    const response = await get(`${image.path}?w=400`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 400, 200]);
    const stored = await server.prisma.storedImageRendition.findMany({ where: { imageId: image.id } });
    expect(stored.map((row) => row.width)).toEqual([400]);

    // The second request reads the stored rendition: replace its bytes and the route answers them.
    const marker = await sharp({ create: { width: 7, height: 7, channels: 3, background: "white" } }).webp().toBuffer();
    await server.prisma.storedImageRendition.update({ where: { imageId_width: { imageId: image.id, width: 400 } }, data: { bytes: new Uint8Array(marker) } });
    expect(Buffer.from(await (await get(`${image.path}?w=400`)).arrayBuffer()).equals(marker)).toBe(true);

    const small = await uploaded(300, 150, 3);
    const notEnlarged = await sharp(Buffer.from(await (await get(`${small.path}?w=1600`)).arrayBuffer())).metadata();
    expect([notEnlarged.width, notEnlarged.height]).toEqual([300, 150]);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const image = await uploaded(120, 80, 4);
    const first = await get(`${image.path}?w=800`);
    const etag = first.headers.get("etag")!;
    expect(etag).toBe(`"${image.id}-800"`);
    const again = await get(`${image.path}?w=800`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await get(`${image.path}?w=800`, { "if-none-match": `"${image.id}-400"` })).status).toBe(200);
  });

  it("answers 404 for unknown images and a wrong extension, 400 for a width not offered", async () => {
    const image = await uploaded(100, 100, 5);
    expect((await get(`/images/${"0".repeat(64)}.jpg`)).status).toBe(404);
    expect((await get(image.path.replace(".jpg", ".png"))).status).toBe(404);
    expect((await get("/images/not-a-hash.jpg")).status).toBe(404);
    for (const w of ["500", "0", "abc", "-400"]) {
      const response = await get(`${image.path}?w=${w}`);
      expect(response.status, w).toBe(400);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("serves what the database holds, never a local file: a row written straight into the table is served", async () => {
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "blue" } }).png().toBuffer();
    const id = crypto.createHash("sha256").update(bytes).digest("hex");
    await server.prisma.storedImage.create({ data: { id, contentType: "image/png", width: 64, height: 48, bytes: new Uint8Array(bytes) } });
    const response = await get(`/images/${id}.png`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("answers a rendition sharp cannot make with a clean 422, logged once per image and width, the original still served", async () => {
    // A PNG cut off after its header, as uploads stored before they were decoded whole (images.upload refuses it now).
    const whole = await sharp(crypto.randomBytes(120 * 90 * 3), { raw: { width: 120, height: 90, channels: 3 } }).png().toBuffer();
    const bytes = whole.subarray(0, whole.length >> 1);
    const id = crypto.createHash("sha256").update(bytes).digest("hex");
    await server.prisma.storedImage.create({ data: { id, contentType: "image/png", width: 120, height: 90, bytes: new Uint8Array(bytes) } });
    const warn = vi.spyOn(server.runtime.log, "warn");
    const error = vi.spyOn(server.runtime.log, "error");
    try {
      for (const w of [400, 400, 400, 1600, 1600]) {
        const response = await get(`/images/${id}.png?w=${w}`);
        expect(response.status, String(w)).toBe(422);
        expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
        expect(response.headers.get("cache-control")).toBe("no-store");
        const text = await response.text();
        expect(text).not.toMatch(/at |vips|Error/);
      }
      expect(warn.mock.calls.filter(([message]) => message === "image rendition failed").map(([, fields]) => (fields as { width: number }).width)).toEqual([400, 1600]);
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
    expect((await get(`/images/${id}.png`)).status).toBe(200);
  });

  it.skipIf(!postgres)("is served by a second server process on the same database", async () => {
    const image = await uploaded(900, 600, 6);
    const peer = await startPeerServer(server);
    try {
      const response = await fetch(`${peer.url}${image.path}?w=800`);
      expect(response.status).toBe(200);
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(800);
    } finally {
      await peer.close();
    }
  });
});
