// What a person reads in the admin is Danish: the order history as sentences (not the stored English reasons, tool
// names or actor ids), the change log with Danish actions, field names and formatted values, and refusals of a form
// as Danish sentences, while the API keeps its English problem texts.
import { beforeAll, describe, expect, it } from "vitest";
import { Invalid, Refused, ToolError } from "../../../src/core/errors.ts";
import { problemText } from "../../../src/web/admin/problems.ts";
import { AdminClient, csrfOf, signedInClient } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "../../tools/orders/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer.dansk@nordlys.dk");
});
const prisma = () => server.prisma;

/** The visible text of a page region: tags dropped, entities decoded, spaces collapsed. */
function text(markup: string): string {
  return markup.replace(/<\/?(code|strong|span|a|time|em)\b[^>]*>/g, "").replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
}

function between(markup: string, start: string, end: string): string {
  const from = markup.indexOf(start);
  expect(from, `${start} not found`).toBeGreaterThanOrEqual(0);
  return markup.slice(from, markup.indexOf(end, from));
}

describe("the order page's history", () => {
  it("tells each event as a Danish sentence, with actors as people and no tool names or English reasons", async () => {
    const order = await createOrder(server, { status: "paid" });
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute));
    await prisma().orderStatusChange.create({ data: { orderId: order.id, fromStatus: null, toStatus: "pending_payment", actor: "session:abc123", reason: "Order placed", createdAt: at(0) } });
    await prisma().auditEntry.create({ data: { tool: "cart.checkout", actor: "session:abc123", door: "web", subjectType: "order", subjectId: order.id, createdAt: at(0) } });
    await prisma().emailMessage.create({ data: { orderId: order.id, to: "kunde@example.dk", subject: "Betal din ordre", kind: "payment_instructions", transport: "log", createdAt: at(1) } });
    await prisma().orderStatusChange.create({ data: { orderId: order.id, fromStatus: "pending_payment", toStatus: "paid", actor: "system:stripe", reason: "stripe payment_intent.succeeded evt_1", createdAt: at(2) } });

    const path = `/admin/orders/${order.id}`;
    const page = await owner.get(path);
    const moved = await owner.request("POST", `${path}/status`, { form: { _csrf: csrfOf(page.html), status: "processing" } });
    expect(moved.status).toBe(303);
    const noted = await owner.request("POST", `${path}/notes`, { form: { _csrf: csrfOf(page.html), body: "Ringet til kunden" } });
    expect(noted.status).toBe(303);

    const history = between((await owner.get(path)).html, '<ol class="timeline">', "</ol>");
    const lines = [...history.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((match) => text(match[1]!).replace(/^\d+\. \S+ \d{4}, [\d.]+ ?/, ""));
    expect(lines).toContain("Ordren blev oprettet (afventer betaling) af kunden (butikken)");
    expect(lines).toContain("Bestilte – kunden (butikken) detaljer");
    expect(lines).toContain("E-mail sendt til kunde@example.dk: betalingsvejledning");
    expect(lines).toContain("Status ændret fra Afventer betaling til Betalt af betalingsudbyderen (Stripe) (reference stripe payment_intent.succeeded evt_1)");
    expect(lines).toContain("Status ændret fra Betalt til Behandles af dig");
    expect(lines).toContain("Ændrede status – dig via admin detaljer");
    expect(lines).toContain("Intern note fra dig Ringet til kunden");
    for (const english of ["Order created", "Order placed", "cart.checkout", "orders.update_status", "session:", "staff:", " via web", "Note by"]) {
      expect(history).not.toContain(english);
    }
  });

  it("names another staff user by e-mail and an API key by its name", async () => {
    const order = await createOrder(server, { status: "paid" });
    await signedInClient(server, "kollega.dansk@nordlys.dk");
    const colleagueRow = await prisma().adminUser.findFirstOrThrow({ where: { email: "kollega.dansk@nordlys.dk" } });
    const key = await prisma().apiKey.findFirst({ select: { id: true, name: true } });
    await prisma().orderStatusChange.create({ data: { orderId: order.id, fromStatus: "paid", toStatus: "processing", actor: `staff:${colleagueRow.id}`, reason: "Kunden ringede" } });
    if (key) await prisma().orderStatusChange.create({ data: { orderId: order.id, fromStatus: "processing", toStatus: "shipped", actor: `key:${key.id}`, reason: null } });
    const history = text(between((await owner.get(`/admin/orders/${order.id}`)).html, '<ol class="timeline">', "</ol>"));
    expect(history).toContain("Status ændret fra Betalt til Behandles af medarbejder kollega.dansk@nordlys.dk. Årsag: Kunden ringede");
    if (key) expect(history).toContain(`Status ændret fra Behandles til Afsendt af API-nøgle ${key.name}`);
  });
});

describe("the change log", () => {
  it("shows Danish actions, field names and kroner instead of tool names and øre", async () => {
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null }, orderBy: { slug: "asc" } });
    const staff = await prisma().adminUser.findFirstOrThrow({ where: { email: "ejer.dansk@nordlys.dk" } });
    const entry = await prisma().auditEntry.create({
      data: {
        tool: "products.update", actor: `staff:${staff.id}`, door: "admin", subjectType: "product", subjectId: product.id,
        before: { slug: product.slug, priceDkk: 129995, featured: false, updatedAt: "2026-11-20T09:00:00.000Z", brand: "Nordlys" },
        after: { slug: product.slug, priceDkk: 119900, featured: true, updatedAt: "2026-11-21T13:30:00.000Z", brand: "Nordlys" },
      },
    });

    const list = await owner.get("/admin/audit?subjectType=product");
    const row = text(between(list.html, `/admin/audit/${entry.id}`, "</tr>"));
    expect(row).toContain("Rettede produkt");
    expect(row).toContain(`produkt ${product.id.slice(0, 14)}`);
    expect(row).toContain("Dig");
    expect(list.html).not.toContain("<code>products.update</code>");

    const detail = await owner.get(`/admin/audit/${entry.id}`);
    expect(detail.html).toContain("<h1>Rettede produkt</h1>");
    const changed = text(between(detail.html, "<tbody>", "</tbody>"));
    expect(changed).toContain("Pris 1.299,95 kr. 1.199,00 kr.");
    expect(changed).toContain("Fremhævet nej ja");
    expect(changed).toContain("Ændret 20. nov. 2026, 10.00 21. nov. 2026, 14.30");
    expect(changed).not.toMatch(/priceDkk|129995|119900|false|true/);
  });

  it("filters by a Danish action name", async () => {
    const list = await owner.get("/admin/audit");
    expect(list.html).toContain('<option value="products.update">Rettede produkt</option>');
  });
});

describe("refusals on admin forms", () => {
  it("show a Danish sentence for a schema error, naming the field", async () => {
    const form = await owner.get("/admin/api-keys");
    const refused = await owner.request("POST", "/admin/api-keys", { form: { _csrf: csrfOf(form.html), name: "x".repeat(101), scopes: "orders:read" } });
    const next = await owner.get(refused.location!);
    expect(next.html).toContain("Tjek felterne: Navn: må højst have 100 tegn.");
    expect(next.html).not.toContain("does not match");
  });

  it("keep the field messages Danish on the product form", async () => {
    const form = await owner.get("/admin/products/new");
    const refused = await owner.request("POST", "/admin/products/new", { form: { _csrf: csrfOf(form.html), name: "Nyt stel", slug: "NO", description: "Tekst", price: "abc", stock: "1" } });
    expect(refused.html).toContain("Skriv et beløb i kroner, fx 1299 eller 1299,50");
    expect(refused.html).not.toMatch(/does not match|Invalid input|Too small/);
  });

  it("are translated per code, per field message and by status, never showing the English detail", () => {
    const schema = new Invalid("The input does not match products.attach_image's schema.", [
      { path: "url", message: "Invalid URL" },
      { path: "slug", message: "Invalid input: expected string, received undefined" },
    ]);
    expect(problemText(schema)).toBe("Tjek felterne: Adresse: skal være en gyldig adresse (https://…); Slug: skal udfyldes.");
    expect(problemText(new Invalid("x", [{ path: "patch.priceDkk", message: "Too small: expected number to be >=1" }]))).toBe("Tjek felterne: Pris: skal være mindst 1.");
    expect(problemText(new Refused("illegal_transition", "Cannot ship order o1: the transition from \"pending_payment\" to \"shipped\" is not allowed."))).toBe("Det statusskift er ikke muligt fra ordrens nuværende status.");
    expect(problemText(new Refused("some_new_rule", "English detail."))).toBe("Butikkens regler tillader det ikke.");
    expect(problemText(new ToolError(403, "forbidden", "Forbidden", 'orders.refund needs the scope "orders:write", which this caller does not have.'))).toBe("Din bruger mangler adgangen orders:write.");
  });
});

describe("order statuses", () => {
  it("tell pending_payment and pending apart, with an explanation on the orders page", async () => {
    const list = await owner.get("/admin/orders");
    expect(list.html).toContain("Hvad betyder statusserne?");
    expect(list.html).toContain(">Afventer betaling</span>");
    expect(list.html).toContain(">Modtaget – afventer behandling</span>");
    expect(list.html).toMatch(/data-status="pending_payment" title="Kunden er sendt til betaling[^"]*"/);
  });
});

describe("the settings page", () => {
  it("names the feature flags in Danish", async () => {
    const page = await owner.get("/admin/settings");
    const features = text(between(page.html, 'id="features"', "</section>"));
    expect(features).toContain("Chat i butikken");
    expect(features).toContain("Nyhedsbrev");
    expect(features).not.toContain("Chat assistant on the storefront");
  });
});
