// The demo shop's pictures over real HTTP: every <img> of the front page, a category page and a product page is served
// by the shop itself (no image host), the committed pictures are what scripts/demo-images.ts draws, and unknown names 404.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoProducts } from "../../prisma/seed/demo.ts";
import { DEMO_IMAGES_DIR, demoImages } from "../../scripts/demo-images.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

const imageSources = (html: string) => [...html.matchAll(/<img\b[^>]*\ssrc="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));

async function expectEveryImageServed(pagePath: string): Promise<number> {
  const page = await fetch(`${server.url}${pagePath}`);
  expect(page.status).toBe(200);
  const sources = imageSources(await page.text());
  for (const src of sources) {
    const url = new URL(src, `${server.url}${pagePath}`);
    expect(url.origin, `${pagePath}: <img src="${src}">`).toBe(new URL(server.url).origin);
    const image = await fetch(url);
    expect(image.status, `${pagePath}: <img src="${src}">`).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
    await image.arrayBuffer();
  }
  return sources.length;
}

describe("the demo shop's pictures", () => {
  it("are all served by the shop on the front page, a category page and a product page", async () => {
    const product = demoProducts(80).find((p) => p.images.length === 2 && !p.deleted)!;
    let total = 0;
    for (const pagePath of ["/", `/categories/${product.categorySlug}`, `/products/${product.slug}`]) total += await expectEveryImageServed(pagePath);
    expect(total).toBeGreaterThan(10);
  });

  it("serves a picture as SVG with a day's caching and a CSP of its own; an unknown name is the 404 page", async () => {
    const response = await fetch(`${server.url}/demo-images/oakley-aviator-coast-1-1.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const name of ["no-such-product-1.svg", "..%2Fdemo.ts", "oakley-aviator-coast-1-1.jpg"]) {
      expect((await fetch(`${server.url}/demo-images/${name}`)).status).toBe(404);
    }
  });

  it("are committed as scripts/demo-images.ts draws them, one for every image a demo product names", () => {
    const drawn = demoImages();
    expect(fs.readdirSync(DEMO_IMAGES_DIR).sort()).toEqual([...drawn.keys()].sort());
    for (const [name, svg] of drawn) expect(fs.readFileSync(path.join(DEMO_IMAGES_DIR, name), "utf8"), name).toBe(svg);
    for (const product of demoProducts(80)) {
      for (const url of product.images) expect(drawn.has(url.replace(/^\/demo-images\//, "")), url).toBe(true);
    }
  });
});
