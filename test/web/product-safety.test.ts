// Product safety (GPSR) on the pages: the storefront product page shows "Produktsikkerhed" (maker, EU responsible
// person, warnings) for the demo products; staff edit it on the admin product page, where a half-filled EU person is
// refused in Danish and changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { signedInClient, type AdminClient } from "../support/admin.ts";
import { useServer } from "../support/server.ts";
import { expectHtmlPage, WebClient } from "../support/web.ts";

const { server } = useServer();
const prisma = () => server.prisma;
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "gpsr-ejer@nordlys.dk");
});

const sunglasses = () => prisma().product.findFirstOrThrow({ where: { deletedAt: null, draft: false, category: { slug: "solbriller" } }, orderBy: { slug: "asc" } });

describe("product safety on the pages", () => {
  it("shows the demo product's maker and warnings under Produktsikkerhed", async () => {
    const product = await sunglasses();
    const page = await new WebClient(server).get(`/products/${product.slug}`);
    expectHtmlPage(page);
    expect(page.html).toContain('<h2 id="safety-title">Produktsikkerhed</h2>');
    expect(page.html).toContain("Nordlys Eyewear A/S");
    expect(page.html).toContain('href="mailto:produktsikkerhed@nordlys-optik.dk"');
    expect(page.html).toContain("Se aldrig direkte på solen");
  });

  it("lets staff set maker, EU responsible person and warnings on the admin product page", async () => {
    const product = await sunglasses();
    const form = await owner.get(`/admin/products/${product.slug}`);
    expect(form.html).toContain(`action="/admin/products/${product.slug}/safety"`);
    const fields = {
      makerName: "Solskin Optics Ltd.", makerAddress: "8 Harbour Road, Hong Kong", makerContact: "https://solskin.example.com",
      euName: "Solskin Europe B.V.", euAddress: "Kade 1, 1011 Amsterdam, Nederlandene", euContact: "eu@solskin.example.com",
      warnings: "Ikke til svejsning.",
    };
    const saved = await owner.submit(`/admin/products/${product.slug}`, `/admin/products/${product.slug}/safety`, fields);
    expect(saved.status).toBe(303);
    expect((await prisma().product.findUniqueOrThrow({ where: { id: product.id } })).safety).toEqual({
      manufacturer: { name: fields.makerName, address: fields.makerAddress, contact: fields.makerContact },
      euResponsible: { name: fields.euName, address: fields.euAddress, contact: fields.euContact },
      warnings: fields.warnings,
    });
    expect((await prisma().auditEntry.findFirstOrThrow({ where: { subjectId: product.id }, orderBy: { createdAt: "desc" } })).tool).toBe("products.set_safety");
    const shop = await new WebClient(server).get(`/products/${product.slug}`);
    expect(shop.html).toContain("Ansvarlig person i EU");
    expect(shop.html).toContain("Solskin Europe B.V.");
    expect(shop.html).toContain('href="https://solskin.example.com"');

    const before = (await prisma().product.findUniqueOrThrow({ where: { id: product.id } })).safety;
    const half = await owner.submit(`/admin/products/${product.slug}`, `/admin/products/${product.slug}/safety`, { ...fields, euAddress: "", euContact: "" });
    expect(half.status).toBe(303);
    const next = await owner.get(half.location!);
    expect(next.html).toContain("Udfyld navn, adresse og kontakt for den ansvarlige person i EU");
    expect((await prisma().product.findUniqueOrThrow({ where: { id: product.id } })).safety).toEqual(before);
  });
});
