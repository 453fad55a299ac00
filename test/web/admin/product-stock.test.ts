// The admin product page's stock (issue 39 item 11): a product with variants sells the variants' stock, so the page
// shows their total and no separate product stock or stock form; a product without variants keeps both.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer.lager@nordlys.dk");
});
const prisma = () => server.runtime.database.prisma;

describe("the product page's stock", () => {
  it("shows the variants' total and no product stock form for a product with variants", async () => {
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false, variants: { some: {} } }, include: { variants: true } });
    const total = product.variants.reduce((sum, variant) => sum + Number(variant.stock), 0);
    const page = await owner.get(`/admin/products/${product.slug}`);
    expect(page.html).toContain(`${total} på lager i alt (varianter)`);
    expect(page.html).not.toContain("Justér lager");
    expect(page.html).not.toContain('class="stock-now"');
  });

  it("keeps the product's own stock and its form for a product without variants", async () => {
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false, variants: { none: {} } } });
    const page = await owner.get(`/admin/products/${product.slug}`);
    expect(page.html).toContain(`<strong class="stock-now">${product.stock}</strong>`);
    expect(page.html).toContain("Justér lager");
  });
});
