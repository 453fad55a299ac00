// The product editor's new forms over real HTTP: image upload (multipart, CSRF, Danish refusals), the slug derived
// from the name on create, and the variant editor (option pairs, price override, stock, add, edit, delete).
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, csrfOf, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

// An https shop address, as in production: uploads are attached with their alt text (products.attach_image is https-only).
const { server } = useServer({ config: () => ({ publicBaseUrl: "https://shop.example.dk" }) });
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer@nordlys.dk");
});

const prisma = () => server.prisma;
const SLUG = "gucci-oversize-bold-74";

function unescape(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The flash message of the page a redirect leads to. */
async function follow(page: { status: number; location: string | null; html: string }): Promise<string> {
  expect(page.status, page.html.slice(0, 400)).toBe(303);
  const next = await owner.get(page.location!);
  return unescape(/<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(next.html)?.[1] ?? "");
}

/** POSTs the upload form as a browser does (multipart), with the CSRF token of the product page unless told. */
async function uploadForm(file: { bytes: Buffer; name: string; type: string } | undefined, options: { csrf?: string; alt?: string } = {}) {
  const page = await owner.get(`/admin/products/${SLUG}`);
  const form = new FormData();
  form.append("_csrf", options.csrf ?? csrfOf(page.html));
  if (options.alt !== undefined) form.append("alt", options.alt);
  if (file) form.append("image", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await fetch(`${server.url}/admin/products/${SLUG}/images/upload`, { method: "POST", body: form, headers: { cookie: owner.cookieHeader() }, redirect: "manual" });
  // The flash message travels in a cookie, as for the client's own requests.
  for (const line of response.headers.getSetCookie()) {
    const [name, ...value] = line.split(";")[0]!.split("=");
    owner.cookies.set(name!.trim(), value.join("="));
  }
  return { status: response.status, location: response.headers.get("location"), html: await response.text() };
}

const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 20, g: 60, b: 90 } } }).jpeg().toBuffer();

describe("the image upload form", () => {
  it("is a multipart form with a file input on the product page", async () => {
    const page = await owner.get(`/admin/products/${SLUG}`);
    expect(page.html).toMatch(/<form method="post" action="\/admin\/products\/gucci-oversize-bold-74\/images\/upload" enctype="multipart\/form-data"/);
    expect(page.html).toContain('type="file"');
  });

  it("uploads the file, attaches it to the product and shows it", async () => {
    const bytes = await jpeg(1200, 900);
    const message = await follow(await uploadForm({ bytes, name: "forfra.jpg", type: "image/jpeg" }, { alt: "Set forfra" }));
    expect(message).toMatch(/^Billedet er lagt op \(1200 × 900 px, \d+ i alt\)\.$/);
    const product = await prisma().product.findUniqueOrThrow({ where: { slug: SLUG }, include: { images: { orderBy: { position: "desc" }, take: 1 } } });
    const image = product.images[0]!;
    expect(image.url).toMatch(new RegExp(`^${server.runtime.config.publicBaseUrl}/images/[0-9a-f]{64}\\.jpg$`));
    expect(image.alt).toBe("Set forfra");
    const served = await fetch(image.url.replace(server.runtime.config.publicBaseUrl, server.url));
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const entries = await prisma().auditEntry.findMany({ where: { tool: { in: ["images.upload", "products.attach_image"] } }, orderBy: { createdAt: "desc" }, take: 2 });
    expect(entries.map((entry) => entry.door)).toEqual(["admin", "admin"]);
    // The storefront card and product page ask for the resized WebP.
    const store = await (await fetch(`${server.url}/products/${SLUG}`)).text();
    expect(store).toContain(`${image.url}?w=800`);
  });

  it("on a shop served over plain http (development) appends the image's path on the shop instead", async () => {
    const config = server.runtime.config as { publicBaseUrl: string };
    const before = config.publicBaseUrl;
    config.publicBaseUrl = "http://localhost:3000";
    try {
      const message = await follow(await uploadForm({ bytes: await jpeg(640, 480), name: "side.jpg", type: "image/jpeg" }));
      expect(message).toMatch(/^Billedet er lagt op \(640 × 480 px, \d+ i alt\)\.$/);
      const product = await prisma().product.findUniqueOrThrow({ where: { slug: SLUG }, include: { images: { orderBy: { position: "desc" }, take: 1 } } });
      expect(product.images[0]!.url).toMatch(/^\/images\/[0-9a-f]{64}\.jpg$/);
      const store = await (await fetch(`${server.url}/products/${SLUG}`)).text();
      expect(store).toContain(`${product.images[0]!.url}?w=800`);
    } finally {
      config.publicBaseUrl = before;
    }
  });

  it("refuses without a valid CSRF token, storing nothing", async () => {
    const before = await prisma().storedImage.count();
    const refused = await uploadForm({ bytes: await jpeg(50, 50), name: "a.jpg", type: "image/jpeg" }, { csrf: "1.forged" });
    expect(refused.status).toBe(403);
    expect(await prisma().storedImage.count()).toBe(before);
  });

  it("says in Danish what is wrong: no file, a file that is no image, an unsupported type, a file over 8 MB", async () => {
    const before = await prisma().storedImage.count();
    expect(await follow(await uploadForm(undefined))).toBe("Vælg en billedfil først.");
    expect(await follow(await uploadForm({ bytes: Buffer.from("hej, jeg er tekst"), name: "a.jpg", type: "image/jpeg" }))).toBe("Filen er ikke et billede, der kan læses.");
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "red" } }).gif().toBuffer();
    expect(await follow(await uploadForm({ bytes: gif, name: "a.gif", type: "image/gif" }))).toBe("Den filtype kan ikke bruges. Vælg et JPEG-, PNG-, WebP- eller AVIF-billede.");
    expect(await follow(await uploadForm({ bytes: Buffer.alloc(8 * 1024 * 1024 + 10, 1), name: "stor.jpg", type: "image/jpeg" }))).toBe("Billedet er for stort: højst 8 MB.");
    expect(await prisma().storedImage.count()).toBe(before);
  });
});

describe("the slug of a new product", () => {
  const fields = { description: "En flot brille til test.", price: "499", stock: "2", category: "solbriller" };

  it("is derived from the name when left empty, numbered when taken", async () => {
    const first = await owner.submit("/admin/products/new", "/admin/products/new", { ...fields, name: "Ærø Panto Grøn", slug: "" });
    expect(first.location).toBe("/admin/products/aeroe-panto-groen");
    const second = await owner.submit("/admin/products/new", "/admin/products/new", { ...fields, name: "Ærø Panto Grøn", slug: "" });
    expect(second.location).toBe("/admin/products/aeroe-panto-groen-2");
    expect(await prisma().product.count({ where: { slug: { startsWith: "aeroe-panto-groen" } } })).toBe(2);
  });

  it("keeps a typed slug, and refuses a name that gives no slug in Danish", async () => {
    const typed = await owner.submit("/admin/products/new", "/admin/products/new", { ...fields, name: "Egen Adresse", slug: "min-egen" });
    expect(typed.location).toBe("/admin/products/min-egen");
    const none = await owner.submit("/admin/products/new", "/admin/products/new", { ...fields, name: "!!", slug: "" });
    expect(none.status).toBe(400);
    expect(unescape(none.html)).toContain("Skriv en adresse: navnet giver ingen brugbar slug.");
  });

  it("marks the name field for the live fill and no longer requires the slug", async () => {
    const page = await owner.get("/admin/products/new");
    expect(page.html).toMatch(/<input id="f-name" name="name"[^>]* data-slug-source="f-slug"/);
    expect(page.html).not.toMatch(/<input id="f-slug"[^>]* required/);
  });
});

describe("the variant editor", () => {
  const slug = "persol-oversize-vinter-5";
  const variants = () => prisma().productVariant.findMany({ where: { product: { slug } }, orderBy: { sku: "asc" } });
  const post = async (form: Record<string, string>) => follow(await owner.submit(`/admin/products/${slug}`, `/admin/products/${slug}/variants`, form));

  it("adds a variant from option pairs, price in kroner and stock", async () => {
    const message = await post({ mode: "new", sku: "PV-M-SORT", opt0name: "Størrelse", opt0value: "M", opt1name: "Farve", opt1value: "Sort", price: "1.299,50", stock: "4" });
    expect(message).toBe("Varianten PV-M-SORT er oprettet.");
    const [variant] = (await variants()).filter((row) => row.sku === "PV-M-SORT");
    expect(variant).toMatchObject({ attributes: { Størrelse: "M", Farve: "Sort" }, priceDkk: 129950n, stock: 4n });
  });

  it("shows a table row and an edit form per variant, with its options filled in", async () => {
    const page = await owner.get(`/admin/products/${slug}`);
    const html = unescape(page.html);
    expect(html).toContain("<code>PV-M-SORT</code>");
    expect(html).toContain('<span class="tag">Størrelse: M</span>');
    expect(html).toContain("1.299,50");
    const form = /<summary>Ret <code>PV-M-SORT<\/code><\/summary>[\s\S]*?<\/form>/.exec(html)![0];
    expect(form).toContain('name="sku" value="PV-M-SORT"');
    // Two option rows filled (in the database's order), two empty ones for more.
    expect(form).toMatch(/name="opt\dname"[^>]* value="Størrelse"/);
    expect(form).toMatch(/name="opt\dvalue"[^>]* value="Sort"/);
    expect(form).toMatch(/name="opt3name"[^>]* value=""/);
    expect(form).toMatch(/name="price"[^>]* value="1299,50"/);
    const section = /<section class="card" id="variants">[\s\S]*?<\/section>/.exec(html)![0];
    expect(section).not.toContain('name="attributes"');
  });

  it("edits a variant: options replaced, empty price = the product's price, stock set", async () => {
    const message = await post({ mode: "edit", sku: "PV-M-SORT", opt0name: "Størrelse", opt0value: "L", opt1name: "", opt1value: "", price: "", stock: "9" });
    expect(message).toBe("Varianten PV-M-SORT er gemt.");
    const [variant] = (await variants()).filter((row) => row.sku === "PV-M-SORT");
    expect(variant).toMatchObject({ attributes: { Størrelse: "L" }, priceDkk: null, stock: 9n });
  });

  it("refuses in Danish: a taken SKU on add, half an option, a repeated option, a bad price, no SKU", async () => {
    const before = await variants();
    expect(await post({ mode: "new", sku: "PV-M-SORT", stock: "1" })).toBe("Der er allerede en variant med SKU PV-M-SORT; ret den i stedet. SKU: Findes allerede");
    expect(await post({ mode: "edit", sku: "PV-M-SORT", opt0name: "Farve", opt0value: "", stock: "1" })).toBe("Udfyld både egenskab og værdi, eller lad begge stå tomme. egenskaber: Række 1 mangler en værdi");
    expect(await post({ mode: "edit", sku: "PV-M-SORT", opt0name: "Farve", opt0value: "Sort", opt1name: "Farve", opt1value: "Hvid", stock: "1" })).toContain("Egenskaben \"Farve\" står der to gange.");
    expect(await post({ mode: "edit", sku: "PV-M-SORT", price: "gratis", stock: "1" })).toContain("Skriv et beløb i kroner");
    expect(await post({ mode: "edit", sku: "PV-M-SORT", price: "0", stock: "1" })).toContain("Prisen skal være over 0 kr.");
    expect(await post({ mode: "new", sku: " ", stock: "1" })).toContain("Skriv en SKU.");
    expect(await variants()).toEqual(before);
  });

  it("deletes a variant", async () => {
    const page = await owner.get(`/admin/products/${slug}`);
    expect(page.html).toContain('data-confirm="Slet varianten PV-M-SORT?"');
    const message = await follow(await owner.request("POST", `/admin/products/${slug}/variants/delete`, { form: { _csrf: csrfOf(page.html), sku: "PV-M-SORT" } }));
    expect(message).toBe("Varianten PV-M-SORT er slettet.");
    expect((await variants()).map((row) => row.sku)).not.toContain("PV-M-SORT");
  });
});
