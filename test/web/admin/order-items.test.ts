// The order page's item editor over real HTTP: a plain form per line swaps the variant, lowers or removes it through
// orders.change_items (audited as the staff user); refusals come back as a Danish page message; a reader may not post.
// The delivery editor moves the order to another method or parcel shop through orders.change_delivery.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, csrfOf, signedInClient } from "../../support/admin.ts";
import { expectOk } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "../../tools/orders/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer.varer@nordlys.dk");
});
const prisma = () => server.prisma;

/** The message on the page a form post redirects to. */
async function follow(client: AdminClient, page: { status: number; location: string | null; html: string }): Promise<string> {
  expect(page.status, page.html.slice(0, 300)).toBe(303);
  const next = await client.get(page.location!);
  const text = /<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(next.html)?.[1] ?? "";
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

async function paidVariantOrder() {
  const order = await createOrder(server, { status: "paid", variant: true, quantities: [1, 2] });
  const line = order.items.find((item) => item.variantId)!;
  const plain = order.items.find((item) => !item.variantId)!;
  await prisma().productVariant.updateMany({ where: { productId: line.productId }, data: { stock: 5n } });
  const m = await prisma().productVariant.findFirstOrThrow({ where: { productId: line.productId, sku: { endsWith: "-m" } } });
  return { order, line, plain, m, path: `/admin/orders/${order.id}` };
}

describe("the order page's item editor", () => {
  it("offers a form per line with the product's variants, and swaps, lowers and removes lines through the tool", async () => {
    const { order, line, plain, m, path } = await paidVariantOrder();
    const page = await owner.get(path);
    expect(page.html).toContain("Ret varer");
    expect(page.html).toContain(`action="${path}/items"`);
    expect(page.html).toContain(`<input type="hidden" name="orderItemId" value="${line.id}">`);
    expect(page.html).toMatch(new RegExp(`<option value="${m.sku}">M \\(${m.sku}\\) · [^<]+ · 5 på lager</option>`));
    expect(page.html).toContain(`<option value="${line.variantSku}" selected>`);

    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: line.id, quantity: "1", variantSku: m.sku }))).toMatch(/^Ordren er ændret\. Ny total: [\d.,]+\s*kr\.$/);
    expect((await prisma().orderItem.findUniqueOrThrow({ where: { id: line.id } })).variantSku).toBe(m.sku);

    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: plain.id, quantity: "1" }))).toMatch(/^Ordren er ændret\. Ny total: [\d.,]+\s*kr\. Kunden får [\d.,]+\s*kr\. tilbage\.$/);
    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: plain.id, quantity: "0" }))).toMatch(/^Ordren er ændret/);
    expect((await prisma().orderItem.findMany({ where: { orderId: order.id } })).map((item) => item.id)).toEqual([line.id]);
    const audits = await prisma().auditEntry.findMany({ where: { tool: "orders.change_items", subjectId: order.id } });
    expect(audits).toHaveLength(3);
    expect(audits.every((entry) => entry.actor.startsWith("staff:") && entry.door === "admin")).toBe(true);
  });

  it("asks how a paid order's rise is collected, shows what is outstanding and books a received transfer", async () => {
    const { order, plain, path } = await paidVariantOrder();
    await prisma().product.update({ where: { id: plain.productId }, data: { stock: 20n } });
    expect((await owner.get(path)).html).toContain(`<option value="payment_link">Send kunden et betalingslink</option>`);
    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: plain.id, quantity: "3" }))).toBe("Ordrens total stiger: vælg, hvordan forskellen skal opkræves.");
    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: plain.id, quantity: "3", collectWith: "payment_link" }))).toMatch(/Kunden får et betalingslink på e-mail og skal betale [\d.,]+\s*kr\./);
    const page = await owner.get(path);
    expect(page.html).toContain("Udestående");
    expect(page.html).toContain("Registrér bankoverførsel af restbeløbet");
    expect(await follow(owner, await owner.submit(path, `${path}/record-payment`, {}))).toMatch(/^Bankoverførslen på [\d.,]+\s*kr\. er registreret\.$/);
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).outstandingDkk).toBe(0n);
  });

  it("shows the shop's refusal on the page: the last line cannot go, a quantity must be a number", async () => {
    const { order, path } = await createOrder(server, { status: "pending", quantities: [1] }).then((o) => ({ order: o, path: `/admin/orders/${o.id}` }));
    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: order.items[0]!.id, quantity: "0" }))).toBe("Ordren skal have mindst én vare. Annullér den i stedet.");
    expect(await follow(owner, await owner.submit(path, `${path}/items`, { orderItemId: order.items[0]!.id, quantity: "to" }))).toContain("Skriv et helt tal");
    expect(await prisma().orderItem.count({ where: { orderId: order.id } })).toBe(1);
  });

  it("is not offered once the order has shipped", async () => {
    const order = await createOrder(server, { status: "shipped" });
    expect((await owner.get(`/admin/orders/${order.id}`)).html).not.toContain("Ret varer");
  });

  it("is disabled for a reader, who is refused when posting anyway", async () => {
    const { line, path } = await paidVariantOrder();
    const reader = await signedInClient(server, "laeser.varer@nordlys.dk", ["orders:read"]);
    const page = await reader.get(path);
    expect(page.html).toMatch(/Gem linjen<\/button> <span class="hint">Kræver adgangen orders:write<\/span>/);
    const forced = await reader.request("POST", `${path}/items`, { form: { _csrf: csrfOf(page.html), orderItemId: line.id, quantity: "0" } });
    expect(forced.status).toBe(403);
    expect(await prisma().orderItem.count({ where: { id: line.id } })).toBe(1);
  });
});

describe("the order page's delivery editor", () => {
  it("moves a paid order to a cheaper parcel shop through orders.change_delivery and refuses a dearer method in Danish", async () => {
    expectOk(server, "settings.update_shipping", await server.call("settings.update_shipping", { freeShippingThresholdDkk: 100_000_000 }, { key: await server.key("settings:write") }));
    const order = await createOrder(server, { status: "paid" });
    const path = `/admin/orders/${order.id}`;
    const page = await owner.get(path);
    expect(page.html).toContain("Ret levering");
    expect(page.html).toContain(`action="${path}/delivery"`);
    expect(page.html).toMatch(/<option value="gls-pakkeshop\|gls-aarhus-spar">GLS Pakkeshop: Spar Trøjborg, 8200 Aarhus N · 35,00 kr\.<\/option>/);
    expect(await follow(owner, await owner.submit(path, `${path}/delivery`, { delivery: "gls-pakkeshop|gls-aarhus-spar" }))).toMatch(/^Leveringen er ændret til GLS Pakkeshop \(Spar Trøjborg\)\. Total: [\d.,]+\s*kr\. Kunden får 14,00\s*kr\. tilbage\.$/);
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ deliveryMethodId: "gls-pakkeshop", shippingDkk: 3500n });
    const after = await owner.get(path);
    expect(after.html).toContain('<option value="gls-pakkeshop|gls-aarhus-spar" selected>');
    expect(after.html).toMatch(/<strong>Pakkeshop:<\/strong> [^<]*Spar Trøjborg/);
    expect(await follow(owner, await owner.submit(path, `${path}/delivery`, { delivery: "postnord-hjem" }))).toBe("En betalt ordres fragt kan ikke stige her: vælg en leveringsmåde, der ikke koster mere.");
    expect(await follow(owner, await owner.submit(path, `${path}/delivery`, { delivery: "gls-pakkeshop" }))).toBe("Vælg en pakkeshop til leveringsmåden.");
    const audits = await prisma().auditEntry.findMany({ where: { tool: "orders.change_delivery", subjectId: order.id } });
    expect(audits.map((entry) => entry.door)).toEqual(["admin"]);
  });
});
