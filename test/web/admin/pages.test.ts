// The admin pages over real HTTP: every page renders for a full-scope staff user; a scope-limited one sees actions
// disabled and is refused when posting anyway; form posts change the shop through the tools, audited as the staff user.
import { beforeAll, describe, expect, it } from "vitest";
import { findActiveKey } from "../../../src/tools/keys/key-secrets.ts";
import { AdminClient, csrfOf, signedInClient } from "../../support/admin.ts";
import { expectProblem } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createOrder } from "../../tools/orders/fixtures.ts";

const { server } = useServer();
let owner: AdminClient;
let ownerId: string;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer@nordlys.dk");
  ownerId = (await server.prisma.adminUser.findUniqueOrThrow({ where: { email: "ejer@nordlys.dk" } })).id;
});

const prisma = () => server.prisma;

/** The flash message the page after a redirect shows. */
async function follow(client: AdminClient, page: { status: number; location: string | null; html: string }): Promise<string> {
  const said = [...page.html.matchAll(/(?:notice-error|field-error|<h1)[^>]*>([^<]+)/g)].map((match) => match[1]).join(" | ");
  expect(page.status, said).toBe(303);
  const next = await client.get(page.location!);
  const text = /<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(next.html)?.[1] ?? "";
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

describe("every admin page", () => {
  it("renders for a staff user with every scope, under the strict CSP and without inline script", async () => {
    const order = await createOrder(server, { status: "paid" });
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null }, orderBy: { slug: "asc" } });
    await owner.submit("/admin/discounts", "/admin/discounts/toggle", { code: "VELKOMMEN10", active: "false" });
    const entry = await prisma().auditEntry.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    const paths = [
      "/admin", "/admin/orders", "/admin/orders?status=paid&from=2020-01-01&to=2099-12-31", `/admin/orders/${order.id}`,
      "/admin/products", "/admin/products?q=gucci&category=solbriller&page=2", `/admin/products/${product.slug}`, "/admin/products/new",
      "/admin/categories", "/admin/categories/solbriller", "/admin/discounts", "/admin/discounts?edit=VELKOMMEN10", "/admin/pages", "/admin/pages/om-os",
      "/admin/services", "/admin/services/synsproeve", "/admin/settings", "/admin/marketing", "/admin/audit", `/admin/audit/${entry.id}`,
      "/admin/staff", "/admin/staff/demo-staff-praktikant", "/admin/api-keys", "/admin/webhooks", "/admin/webhooks/demo-webhook-erp", "/admin/assistant",
      "/admin/support", "/admin/support?status=answered", "/admin/support?status=closed", "/admin/support/demo-ticket-2",
      "/admin/returns", "/admin/returns?status=approved", "/admin/returns?status=refunded", "/admin/returns/demo-return-1", "/admin/returns/demo-return-2",
      "/admin/orders/demo-order-03",
      "/admin/credit", "/admin/credit?email=mette.hansen%40example.dk",
    ];
    for (const path of paths) {
      const page = await owner.get(path);
      expect(page.status, `${path}: ${page.html.slice(0, 300)}`).toBe(200);
      expect(page.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(page.html, path).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(page.html, path).not.toMatch(/\sstyle=/);
      expect(page.html, path).toContain('<meta name="robots" content="noindex">');
    }
    expect((await owner.get(`/admin/orders/${order.id}`)).html).toContain(order.email);
    expect((await owner.get("/admin/nothing-here")).status).toBe(404);
    expect((await owner.get("/admin/orders/no-such-order")).status).toBe(404);
  });
});

describe("a staff user with few scopes", () => {
  it("sees write actions disabled with the scope they need, and is refused (403) when posting anyway", async () => {
    const order = await createOrder(server, { status: "paid" });
    const clerk = await signedInClient(server, "laeser@nordlys.dk", ["orders:read"]);
    const page = await clerk.get(`/admin/orders/${order.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<button type="submit" class="button [^"]*" disabled title="Kræver adgangen orders:write">→ Behandles<\/button>/);
    expect(page.html).toMatch(/Gem forsendelse<\/button> <span class="hint">Kræver adgangen orders:write<\/span>/);

    const forced = await clerk.request("POST", `/admin/orders/${order.id}/status`, { form: { _csrf: csrfOf(page.html), status: "processing" } });
    expect(forced.status).toBe(403);
    expect(forced.html).toContain("orders:write");
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("paid");

    const audit = await clerk.get("/admin/audit");
    expect(audit.status).toBe(403);
    expect(audit.html).toContain("audit:read");
    const keys = await clerk.get("/admin/api-keys");
    expect(keys.status).toBe(403);
    expect(keys.html).toContain("keys:read");
    const home = await clerk.get("/admin");
    expect(home.status).toBe(200);
    expect(home.html).toContain("Nøgletal kræver adgangen analytics:read.");
  });

  it("cannot give an API key more than their own scopes, nor revoke a stronger key", async () => {
    const clerk = await signedInClient(server, "noegler@nordlys.dk", ["orders:read", "catalog:read", "keys:read", "keys:write"]);
    const form = await clerk.get("/admin/api-keys");
    expect(form.html).toMatch(/<input type="checkbox" id="f-scopes-orders_read" name="scopes" value="orders:read" aria-describedby="f-scopes-orders_read-hint">/);
    expect(form.html).toMatch(/<input type="checkbox" id="f-scopes-orders_write" name="scopes" value="orders:write" disabled aria-describedby="f-scopes-orders_write-hint">/);
    expect(form.html).toMatch(/value="\*" disabled aria-describedby/);
    const before = await prisma().apiKey.count();
    for (const scopes of [["orders:write"], ["*"], ["orders:read", "products:write"]]) {
      const body = new URLSearchParams({ _csrf: csrfOf(form.html), name: "too much" });
      for (const scope of scopes) body.append("scopes", scope);
      expect((await clerk.request("POST", "/admin/api-keys", { form: body })).status, scopes.join()).toBe(403);
    }
    expect(await prisma().apiKey.count()).toBe(before);

    const reader = await signedInClient(server, "kigger@nordlys.dk", ["orders:read", "keys:read"]);
    const readOnly = await reader.get("/admin/api-keys");
    expect(readOnly.html).toMatch(/<button type="submit" class="button" disabled title="Kræver adgangen keys:write">Opret nøgle<\/button>/);

    const strong = await server.key("*");
    const strongRow = (await findActiveKey(prisma(), strong))!;
    const revoke = await clerk.submit("/admin/api-keys", `/admin/api-keys/${strongRow.id}/revoke`, {});
    expect(revoke.status).toBe(403);
    expect(await findActiveKey(prisma(), strong)).not.toBeNull();
  });
});

describe("API keys", () => {
  it("take an agent platform's ACP signing secret and webhook URL, refusing bad ones before any key exists", async () => {
    const form = await owner.get("/admin/api-keys");
    expect(form.html).toContain('name="acpSigningSecret"');
    const body = new URLSearchParams({ _csrf: csrfOf(form.html), name: "Agentplatform", acpSigningSecret: "platform-secret-0123456789", acpWebhookUrl: "https://agent.example.com/acp" });
    body.append("scopes", "checkout:agent");
    const created = await owner.request("POST", "/admin/api-keys", { form: body });
    expect(created.status).toBe(201);
    const row = await prisma().apiKey.findFirstOrThrow({ where: { name: "Agentplatform" } });
    expect(row).toMatchObject({ scopes: ["checkout:agent"], acpSigningSecret: "platform-secret-0123456789", acpWebhookUrl: "https://agent.example.com/acp" });
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "keys.set_acp", subjectId: row.id } });
    expect(JSON.stringify(audit)).not.toContain("platform-secret-0123456789");

    const bad = new URLSearchParams({ _csrf: csrfOf(form.html), name: "Forkert", acpSigningSecret: "short" });
    bad.append("scopes", "checkout:agent");
    await owner.request("POST", "/admin/api-keys", { form: bad });
    expect(await prisma().apiKey.count({ where: { name: "Forkert" } })).toBe(0);

    // A webhook URL the outbound guard refuses (WEBHOOKS_ALLOW_LOCAL is off here) makes no key either.
    const local = new URLSearchParams({ _csrf: csrfOf(form.html), name: "Lokal", acpSigningSecret: "platform-secret-0123456789", acpWebhookUrl: "http://169.254.169.254/latest" });
    local.append("scopes", "checkout:agent");
    const refused = await owner.request("POST", "/admin/api-keys", { form: local });
    expect(refused.status).toBe(303);
    expect(await prisma().apiKey.count({ where: { name: "Lokal" } })).toBe(0);
  });

  it("are limited to the ticked toolsets, shown on the new key and in the list", async () => {
    const form = await owner.get("/admin/api-keys");
    expect(form.html).toMatch(/<input type="checkbox" id="f-toolsets-orders" name="toolsets" value="orders"/);
    const body = new URLSearchParams({ _csrf: csrfOf(form.html), name: "Ordreagent" });
    body.append("scopes", "orders:read");
    body.append("scopes", "catalog:read");
    body.append("toolsets", "orders");
    const created = await owner.request("POST", "/admin/api-keys", { form: body });
    expect(created.status).toBe(201);
    expect(created.html).toContain("Kun værktøjssæt");
    const key = /id="new-key"[^>]*value="(shop_[^"]+)"/.exec(created.html)![1]!;
    expect((await prisma().apiKey.findFirstOrThrow({ where: { name: "Ordreagent" } })).toolsets).toEqual(["orders"]);
    expect((await server.call("orders.list", { limit: 1 }, { key })).status).toBe(200);
    expectProblem(await server.call("categories.list", {}, { key }), 403, "forbidden");
    expect((await owner.get("/admin/api-keys")).html).toContain("Kun værktøjssæt: orders");
  });

  it("are created with the chosen scopes, shown once, usable over REST, listed without the secret, revoked, and audited", async () => {
    const form = await owner.get("/admin/api-keys");
    const body = new URLSearchParams({ _csrf: csrfOf(form.html), name: "ERP-synk" });
    body.append("scopes", "orders:read");
    body.append("scopes", "catalog:read");
    const created = await owner.request("POST", "/admin/api-keys", { form: body });
    expect(created.status).toBe(201);
    const html = created.html;
    const key = /id="new-key"[^>]*value="(shop_[^"]+)"/.exec(html)![1]!;
    expect(html).toContain("vises kun denne ene gang");

    expect((await server.call("orders.list", { limit: 1 }, { key })).status).toBe(200);
    expectProblem(await server.call("orders.update_status", { orderId: "x", status: "paid" }, { key }), 403, "forbidden");
    const row = (await findActiveKey(prisma(), key))!;
    expect([...row.scopes].sort()).toEqual(["catalog:read", "orders:read"]);

    const listed = await owner.get("/admin/api-keys");
    expect(listed.html).toContain("ERP-synk");
    expect(listed.html).not.toContain(key);
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "keys.create", subjectId: row.id } });
    expect(audit).toMatchObject({ actor: `staff:${ownerId}`, door: "admin", subjectType: "apiKey", before: null });
    expect(JSON.stringify(audit.after)).not.toContain(key);

    expect(await follow(owner, await owner.submit("/admin/api-keys", `/admin/api-keys/${row.id}/revoke`, {}))).toContain("tilbagekaldt");
    expectProblem(await server.call("orders.list", {}, { key }), 401, "unauthorized");
    const revoked = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "keys.revoke", subjectId: row.id } });
    expect(revoked.actor).toBe(`staff:${ownerId}`);
    // The audit page shows the entry, and audit.revert refuses to restore a key.
    const entryPage = await owner.get(`/admin/audit/${revoked.id}`);
    expect(entryPage.html).toContain("kan ikke fortrydes");
    expect(await follow(owner, await owner.submit(`/admin/audit/${revoked.id}`, `/admin/audit/${revoked.id}/revert`, {}))).toBe("Denne ændring kan ikke fortrydes.");
  });

  it("needs at least one scope and a name of at most 100 characters", async () => {
    expect(await follow(owner, await owner.submit("/admin/api-keys", "/admin/api-keys", { name: "tom" }))).toContain("mindst én adgang");
    expect(await follow(owner, await owner.submit("/admin/api-keys", "/admin/api-keys", { name: "x".repeat(101), scopes: "orders:read" }))).toBe("Tjek felterne: Navn: må højst have 100 tegn.");
    expect(await follow(owner, await owner.submit("/admin/api-keys", "/admin/api-keys", { name: " ", scopes: "orders:read" }))).toBe("Tjek felterne: Navn: skal udfyldes.");
  });
});

describe("orders", () => {
  it("move along legal transitions only, with tracking, notes and refunds, audited as the staff user", async () => {
    const order = await createOrder(server, { status: "paid" });
    const path = `/admin/orders/${order.id}`;
    expect(await follow(owner, await owner.submit(path, `${path}/status`, { status: "completed" }))).toBe("Det statusskift er ikke muligt fra ordrens nuværende status.");
    expect(await follow(owner, await owner.submit(path, `${path}/status`, { status: "processing" }))).toBe("Ordren er nu behandles.");
    const shipped = await follow(owner, await owner.submit(path, `${path}/tracking`, { carrier: "PostNord", trackingNumber: "00370712345", trackingUrl: "https://tracking.postnord.com/00370712345", estDeliveryFrom: "2026-12-01T08:00", estDeliveryTo: "2026-12-02T16:00", markShipped: "on" }));
    expect(shipped).toBe("Forsendelsen er gemt, og ordren er afsendt.");
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "shipped", carrier: "PostNord", trackingNumber: "00370712345" });
    // 08:00 in Copenhagen in December is 07:00 UTC.
    expect(row.estDeliveryFrom?.toISOString()).toBe("2026-12-01T07:00:00.000Z");
    expect(await follow(owner, await owner.submit(path, `${path}/notes`, { body: "Kunden ringede." }))).toBe("Noten er tilføjet.");
    expect(await follow(owner, await owner.submit(path, `${path}/refund`, { amount: "100", reason: "Ridse" }))).toMatch(/^Refunderet i alt 100,00 kr\./);
    const page = await owner.get(path);
    expect(page.html).toContain("Kunden ringede.");
    const audits = await prisma().auditEntry.findMany({ where: { subjectType: "order", subjectId: order.id } });
    expect(audits.map((entry) => entry.tool)).toEqual(expect.arrayContaining(["orders.update_status", "orders.set_tracking", "orders.refund"]));
    expect(new Set(audits.map((entry) => `${entry.actor} ${entry.door}`))).toEqual(new Set([`staff:${ownerId} admin`]));
  });
});

describe("order numbers", () => {
  it("name orders in the list, on the order page and in the audit log, and find them by number, e-mail or name", async () => {
    const order = await createOrder(server, { status: "paid", email: "nummer.kunde@example.dk" });
    const ref = `#${order.number}`;
    const list = await owner.get("/admin/orders");
    expect(list.html).toContain(`<a href="/admin/orders/${order.id}">${ref}</a>`);
    expect(list.html).not.toContain(`#${order.id.slice(-8)}`);
    const linked = (html: string) => [...html.matchAll(/<a href="\/admin\/orders\/([\w-]+)">#\d+<\/a>/g)].map((match) => match[1]);
    for (const q of [String(order.number), ref, ` ${ref} `]) {
      expect(linked((await owner.get(`/admin/orders?q=${encodeURIComponent(q)}`)).html), q).toEqual([order.id]);
    }
    expect(linked((await owner.get("/admin/orders?q=1001")).html)).toEqual(["demo-order-01"]);
    expect(linked((await owner.get("/admin/orders?q=NUMMER.KUNDE")).html)).toEqual([order.id]);
    const sofie = linked((await owner.get("/admin/orders?q=sofie%20pedersen")).html);
    expect(sofie.length).toBeGreaterThan(1);
    expect(sofie).toContain("demo-order-03");
    const none = await owner.get("/admin/orders?q=%23999999");
    expect(none.html).toContain("Ingen ordrer passer til filtrene.");
    expect((await owner.get("/admin/orders?q=1001")).html).toContain('value="1001"');

    const page = await owner.get(`/admin/orders/${order.id}`);
    expect(page.html).toContain(`<title>Ordre ${ref}`);
    expect(page.html).toContain(`<h1>Ordre ${ref}</h1>`);
    expect((await owner.submit(`/admin/orders/${order.id}`, `/admin/orders/${order.id}/status`, { status: "processing" })).status).toBe(303);
    expect((await owner.get("/admin/audit?subjectType=order")).html).toContain(`ordre <a href="/admin/orders/${order.id}">${ref}</a>`);
  });
});

describe("products", () => {
  it("keep what was typed and name the field when the shop refuses a new product; then create and edit it", async () => {
    const bad = await owner.submit("/admin/products/new", "/admin/products/new", {
      name: "Nordlys Test", slug: "Ugyldig Slug", description: "En flot brille til test.", price: "abc", stock: "3", category: "solbriller", faq: "Kun et spørgsmål",
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('value="Nordlys Test"');
    expect(bad.html).toContain("En flot brille til test.");
    expect(bad.html).toMatch(/field-error[^>]*>Skriv et beløb i kroner/);

    const created = await owner.submit("/admin/products/new", "/admin/products/new", {
      name: "Nordlys Test", slug: "nordlys-test", description: "En flot brille til test.", price: "1.299,50", stock: "3", category: "solbriller",
      attributes: "form: rund\nmateriale: titanium", faq: "Er den let?\nJa, 14 g.", featured: "on",
    });
    expect(await follow(owner, created)).toBe("Nordlys Test er oprettet.");
    expect(created.location).toBe("/admin/products/nordlys-test");
    const product = await server.call("products.get", { slug: "nordlys-test" });
    expect(product.body.result).toMatchObject({ priceDkk: 129950, stock: 3, featured: true });

    const taken = await owner.submit("/admin/products/new", "/admin/products/new", { name: "Igen", slug: "nordlys-test", description: "En flot brille til test.", price: "10", stock: "1", category: "solbriller" });
    expect(taken.status).toBe(409);

    const edit = await owner.get("/admin/products/nordlys-test");
    expect(edit.html).toContain("Er den let?\nJa, 14 g.");
    const saved = await owner.submit("/admin/products/nordlys-test", "/admin/products/nordlys-test", {
      name: "Nordlys Test", description: "En flot brille til test.", price: "999", category: "solbriller", attributes: "form: rund", faq: "", useCases: "", comparisonFacts: "", answerSummary: "",
    });
    expect(await follow(owner, saved)).toBe("Ændringerne er gemt.");
    expect((await server.call("products.get", { slug: "nordlys-test" })).body.result).toMatchObject({ priceDkk: 99900, featured: false });
    const answers = await server.call("products.get_answers", { slug: "nordlys-test" }, { key: await server.key("catalog:read") });
    expect(answers.body.result).toMatchObject({ attributes: { form: "rund" }, faq: [] });
    expect(await follow(owner, await owner.submit("/admin/products/nordlys-test", "/admin/products/nordlys-test/stock", { delta: "5", reason: "Levering" }))).toBe("Lageret er ændret fra 3 til 8.");
  });

  it("are soft-deleted only with the box ticked, and come back with Revert on the audit page", async () => {
    const product = await prisma().product.findFirstOrThrow({ where: { deletedAt: null, slug: { not: "nordlys-test" } }, orderBy: { slug: "desc" } });
    const path = `/admin/products/${product.slug}`;
    expect(await follow(owner, await owner.submit(path, `${path}/delete`, {}))).toContain("Sæt flueben");
    expect((await server.call("products.get", { slug: product.slug })).status).toBe(200);
    expect(await follow(owner, await owner.submit(path, `${path}/delete`, { confirm: "on" }))).toContain("er slettet");
    expect((await server.call("products.get", { slug: product.slug })).status).toBe(404);

    const entry = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "products.delete", subjectId: product.id } });
    const list = await owner.get("/admin/audit?subjectType=product");
    expect(list.html).toContain(`/admin/audit/${entry.id}`);
    const detail = await owner.get(`/admin/audit/${entry.id}`);
    expect(detail.html).toMatch(/<tr class="changed"><th scope="row" title="deletedAt">Slettet<\/th>/);
    expect(await follow(owner, await owner.submit(`/admin/audit/${entry.id}`, `/admin/audit/${entry.id}/revert`, {}))).toBe("Produkt er gendannet.");
    expect((await server.call("products.get", { slug: product.slug })).status).toBe(200);
    // A second revert is refused, with the shop's reason.
    const again = await owner.request("POST", `/admin/audit/${entry.id}/revert`, { form: { _csrf: csrfOf(detail.html) } });
    expect(await follow(owner, again)).toBe("Ændringen er allerede fortrudt.");
  });
});

describe("content pages", () => {
  it("show invalid layout JSON and schema errors next to the editor, and save a valid layout", async () => {
    const page = await owner.get("/admin/pages/om-os");
    const post = (layout: string) => owner.request("POST", "/admin/pages/layout", { form: { _csrf: csrfOf(page.html), slug: "om-os", layout } });
    const broken = await post("{ sections: ");
    expect(broken.status).toBe(400);
    expect(broken.html).toContain("Ugyldig JSON");
    expect(broken.html).toContain("{ sections:");
    const invalid = await post(JSON.stringify({ sections: [{ id: "a", type: "hero", props: {} }] }));
    expect(invalid.status).toBe(400);
    expect(invalid.html).toMatch(/<code>sections\.0[^<]*heading/);
    const valid = await post(JSON.stringify({ sections: [{ id: "a", type: "hero", props: { heading: "Velkommen" } }] }));
    expect(await follow(owner, valid)).toBe("Layoutet er gemt (1 sektion).");
    expect((await server.call("pages.get_layout", { slug: "om-os" }, { key: await server.key("pages:read") })).body.result).toMatchObject({ layout: { sections: [{ id: "a" }] } });
  });
});

describe("discounts, categories, settings", () => {
  it("create, toggle, update and delete through their tools", async () => {
    expect(await follow(owner, await owner.submit("/admin/discounts", "/admin/discounts/create", { code: "vinter25", type: "percent", value: "25", usageLimit: "10" }))).toBe("Rabatkoden VINTER25 er oprettet.");
    expect(await follow(owner, await owner.submit("/admin/discounts", "/admin/discounts/toggle", { code: "VINTER25", active: "false" }))).toBe("VINTER25 er nu slået fra.");
    expect(await follow(owner, await owner.submit("/admin/discounts?edit=VINTER25", "/admin/discounts/update", { code: "VINTER25", value: "30", validUntil: "", usageLimit: "" }))).toBe("VINTER25 er gemt.");
    expect(await prisma().discount.findUniqueOrThrow({ where: { code: "VINTER25" } })).toMatchObject({ value: 30n, usageLimit: null, active: false });
    expect(await follow(owner, await owner.submit("/admin/discounts", "/admin/discounts/delete", { code: "VINTER25" }))).toBe("VINTER25 er slettet.");

    expect(await follow(owner, await owner.submit("/admin/categories", "/admin/categories", { slug: "skibriller", name: "Skibriller" }))).toBe("Kategorien Skibriller er gemt.");
    expect(await follow(owner, await owner.submit("/admin/categories/solbriller", "/admin/categories/solbriller/delete", {}))).toBe("Kategorien har stadig produkter. Flyt eller slet dem først.");
    expect(await follow(owner, await owner.submit("/admin/categories/skibriller", "/admin/categories/skibriller/delete", {}))).toBe("Kategorien er slettet.");

    expect(await follow(owner, await owner.submit("/admin/settings", "/admin/settings/shipping", { flatRate: "39", freeShippingThreshold: "599", carriers: "PostNord: 1-3\nGLS: 1-2" }))).toBe("Fragten er gemt.");
    const settings = await server.call("settings.get", {}, { key: await server.key("settings:read") });
    expect(settings.body.result).toMatchObject({ shipping: { flatRateDkk: 3900, freeShippingThresholdDkk: 59900, carriers: [{ name: "PostNord", minDays: 1, maxDays: 3 }, { name: "GLS", minDays: 1, maxDays: 2 }] } });
    expect(await follow(owner, await owner.submit("/admin/settings", "/admin/settings/shipping", { flatRate: "39", freeShippingThreshold: "599", carriers: "PostNord tre dage" }))).toContain('"Navn: 1-3"');
  });

  it("switches agent checkouts off with «Køb via AI-agenter: Fra», the commerce setting's agentAccess, not a feature flag", async () => {
    const commerce = { currency: "DKK", pricesIncludeVat: "on", checkoutNeeds: "full_address" };
    const page = await owner.get("/admin/settings");
    expect(page.html).toMatch(/<label for="f-agentAccess">Køb via AI-agenter<\/label>/);
    expect(page.html).toContain('<option value="off">Fra: ingen AI-agent kan købe</option>');
    // The retired flag has no toggle of its own among the features.
    expect(page.html).not.toMatch(/name="key" value="agent_checkout"/);
    expect(await follow(owner, await owner.submit("/admin/settings", "/admin/settings/commerce", { ...commerce, agentAccess: "off" }))).toBe("Valuta og moms er gemt.");
    const read = async () => (await server.call("settings.get_commerce", {}, { key: await server.key("settings:read") })).body.result as { agentAccess: string };
    expect((await read()).agentAccess).toBe("off");
    expect((await owner.get("/admin/settings")).html).toContain('<option value="off" selected>Fra: ingen AI-agent kan købe</option>');
    expect(await follow(owner, await owner.submit("/admin/settings", "/admin/settings/commerce", { ...commerce, agentAccess: "open" }))).toBe("Valuta og moms er gemt.");
    expect((await read()).agentAccess).toBe("open");
  });
});

describe("oversized forms", () => {
  it("answer 413 (not 403 form expired) with a valid CSRF token, for too many bytes and too many fields, changing nothing", async () => {
    const before = await prisma().page.count();
    const form = await owner.get("/admin/pages/new");
    const token = csrfOf(form.html);
    const big = await owner.request("POST", "/admin/pages/upsert", { form: { _csrf: token, slug: "stor", title: "Stor", body: "x".repeat(600_000) } });
    expect(big.status).toBe(413);
    expect(big.html).toContain("For meget data");
    const fields = new URLSearchParams({ _csrf: token, slug: "mange", title: "Mange", body: "tekst" });
    for (let i = 0; i < 1001; i++) fields.append(`extra${i}`, "1");
    const many = await owner.request("POST", "/admin/pages/upsert", { form: fields });
    expect(many.status).toBe(413);
    expect(await prisma().page.count()).toBe(before);
  });
});
