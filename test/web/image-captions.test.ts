// Image captions are the alt texts: the storefront product page gives each photo its stored alt text (as the img's alt
// and as a visible caption), and the admin product page captions each tile with it, marking a photo that has none.
import { beforeAll, describe, expect, it } from "vitest";
import { signedInClient, type AdminClient } from "../support/admin.ts";
import { expectOk } from "../support/expect.ts";
import { useServer } from "../support/server.ts";
import { expectHtmlPage, WebClient } from "../support/web.ts";

const { server } = useServer();
const prisma = () => server.prisma;
let owner: AdminClient;
let key: string;
beforeAll(async () => {
  owner = await signedInClient(server, "billeder-ejer@nordlys.dk");
  key = await server.key("products:write", "catalog:read");
});

/** A visible product with two new photos: the first with an alt text, the second without. */
async function photographed(n: number) {
  const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false }, orderBy: { slug: "asc" }, skip: n });
  await prisma().productImage.deleteMany({ where: { productId: product.id } });
  const described = `https://images.example.com/${product.slug}-forfra.jpg`;
  const bare = `https://images.example.com/${product.slug}-bare.jpg`;
  expectOk(server, "products.attach_image", await server.call("products.attach_image", { slug: product.slug, imageUrl: described, alt: "Stel i mat sort, set forfra" }, { key }));
  expectOk(server, "products.attach_image", await server.call("products.attach_image", { slug: product.slug, imageUrl: bare }, { key }));
  return { product, described, bare };
}

describe("image captions", () => {
  it("shows the alt text under the product page's photo and as its alt; a photo without one falls back to the name", async () => {
    const { product, bare } = await photographed(0);
    const page = await new WebClient(server).get(`/products/${product.slug}`);
    expectHtmlPage(page);
    expect(page.html).toMatch(/<img [^>]*alt="Stel i mat sort, set forfra"/);
    expect(page.html).toContain('<figcaption class="image-caption">Stel i mat sort, set forfra</figcaption>');
    expect(page.html).toMatch(new RegExp(`<img src="${bare}"[^>]*alt="[^"]*, billede 2"`));
    expect(page.html.match(/<figcaption class="image-caption">/g)).toHaveLength(1);
  });

  it("captions the admin product page's image tiles with the alt text, naming a missing one", async () => {
    const { product, described, bare } = await photographed(1);
    const page = await owner.get(`/admin/products/${product.slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<span class="image-name" title="${described}">Stel i mat sort, set forfra</span>`);
    expect(page.html).toContain(`<span class="image-name" title="${bare}">${product.slug}-bare.jpg <span class="hint">(ingen alt-tekst)</span></span>`);
  });
});
