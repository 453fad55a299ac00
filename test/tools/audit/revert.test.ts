// audit.revert through real HTTP: change → revert → the subject equals its before-state, for every revertible tool
// in the registry; plus the refusals (already reverted, changed since, generic and revert entries, orders) and bounds.
import { describe, expect, it } from "vitest";
import { createRegistry } from "../../../src/tools/registry.ts";
import { redeemDiscount } from "../../../src/tools/discounts/discount-rules.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const registry = createRegistry();
const missing = (...names: string[]) => names.some((name) => !registry.get(name));

const { server, keys: { admin, reverter } } = useServer({ keys: { admin: ["*"], reverter: ["audit:revert"] } });

const db = () => server.prisma;
type Row = Record<string, unknown> | null;

/** A row without updatedAt (a revert is itself a change, so updatedAt moves on). */
function strip(row: unknown): unknown {
  if (!row || typeof row !== "object") return row;
  const { updatedAt: _updatedAt, ...rest } = row as Record<string, unknown>;
  return rest;
}

async function change(tool: string, input: object): Promise<string> {
  expectOk(server, tool, await server.call(tool, input, { key: admin }));
  const entry = await db().auditEntry.findFirstOrThrow({ where: { tool }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return entry.id;
}

type RevertResult = { ok: true; entryId: string; revertEntryId: string; subjectType: string; subjectId: string; action: string };
async function revert(id: string): Promise<RevertResult> {
  return expectOk<RevertResult>(server, "audit.revert", await server.call("audit.revert", { id }, { key: reverter }));
}

/** change → revert → the state read by `read` equals the state before the change (updatedAt aside). */
async function roundTrip(tool: string, input: object, read: () => Promise<Row | Row[]>, action: string): Promise<RevertResult> {
  const before = await read();
  const entryId = await change(tool, input);
  const changed = await read();
  expect(Array.isArray(changed) ? changed.map(strip) : strip(changed)).not.toEqual(Array.isArray(before) ? before.map(strip) : strip(before));
  const result = await revert(entryId);
  expect(result.action).toBe(action);
  const after = await read();
  expect(Array.isArray(after) ? after.map(strip) : strip(after)).toEqual(Array.isArray(before) ? before.map(strip) : strip(before));
  const original = await db().auditEntry.findUniqueOrThrow({ where: { id: entryId } });
  expect(original.revertedAt).not.toBeNull();
  expect(original.revertedBy).toMatch(/^key:/);
  const own = await db().auditEntry.findUniqueOrThrow({ where: { id: result.revertEntryId } });
  expect(own).toMatchObject({ tool: "audit.revert", revertOfId: entryId, subjectType: original.subjectType, subjectId: original.subjectId });
  return result;
}

const product = (slug: string) =>
  db().product.findUnique({ where: { slug }, include: { images: { select: { url: true, alt: true, sourceId: true, position: true }, orderBy: { position: "asc" } } } });
const discount = (code: string) => db().discount.findUnique({ where: { code } });
const category = (slug: string) => db().category.findUnique({ where: { slug } });
const page = (slug: string) => db().page.findUnique({ where: { slug } });
const service = (slug: string) => db().serviceOffering.findUnique({ where: { slug } });
const setting = (section: string) => db().setting.findUnique({ where: { section } });
const visibleSlugs = async () =>
  expectOk<Array<{ slug: string }>>(server, "products.search", await server.call("products.search", { limit: 100 })).map((p) => p.slug);

describe("audit.revert restores the before-state", () => {
  it.skipIf(missing("products.update"))("products.update (fields and images)", async () => {
    const slug = (await db().product.findFirstOrThrow({ where: { deletedAt: null }, orderBy: { slug: "asc" } })).slug;
    await roundTrip("products.update", { slug, patch: { priceDkk: 123400, name: "Nyt navn", images: ["https://images.example.com/ny.jpg"] } }, () => product(slug), "restored");
  });

  it.skipIf(missing("products.delete"))("products.delete: the product is visible again", async () => {
    const slug = (await db().product.findFirstOrThrow({ where: { deletedAt: null }, orderBy: { slug: "desc" } })).slug;
    await roundTrip("products.delete", { slug, confirm: true }, () => product(slug), "restored");
    expect(await visibleSlugs()).toContain(slug);
    expectOk(server, "products.get", await server.call("products.get", { slug }));
  });

  it.skipIf(missing("products.create"))("products.create: the new product is soft-deleted (hidden), as products always are", async () => {
    const input = { name: "Revert Testbrille", slug: "revert-testbrille", description: "En brille der kun findes i en test.", priceDkk: 50000, stock: 3, categorySlug: "solbriller", images: ["https://images.example.com/t.jpg"] };
    const entryId = await change("products.create", input);
    expect(await visibleSlugs()).toContain("revert-testbrille");
    expect(await revert(entryId)).toMatchObject({ action: "deleted", subjectType: "product" });
    expect((await product("revert-testbrille"))!.deletedAt).not.toBeNull();
    expect(await visibleSlugs()).not.toContain("revert-testbrille");
    expectProblem(await server.call("products.get", { slug: "revert-testbrille" }), 404, "not_found");
  });

  it.skipIf(missing("categories.upsert"))("categories.upsert of an existing and of a new category", async () => {
    const existing = (await db().category.findFirstOrThrow({ orderBy: { slug: "asc" } })).slug;
    await roundTrip("categories.upsert", { slug: existing, name: "Omdøbt kategori", description: "Ny beskrivelse" }, () => category(existing), "restored");
    await roundTrip("categories.upsert", { slug: "ny-kategori", name: "Ny kategori" }, () => category("ny-kategori"), "deleted");
  });

  it("discounts.create, toggle, update and delete", async () => {
    await roundTrip("discounts.create", { code: "REVERTME", type: "fixed", value: 1000 }, () => discount("REVERTME"), "deleted");
    await roundTrip("discounts.toggle", { code: "VELKOMMEN10" }, () => discount("VELKOMMEN10"), "restored");
    await roundTrip("discounts.update", { code: "SOMMER200", patch: { value: 30000, usageLimit: null, validUntil: "2099-01-01T00:00:00Z" } }, () => discount("SOMMER200"), "restored");
    await roundTrip("discounts.delete", { code: "UDLOBET", confirm: true }, () => discount("UDLOBET"), "recreated");
  });

  it.skipIf(missing("pages.upsert"))("pages.upsert of an existing and of a new page", async () => {
    await roundTrip("pages.upsert", { slug: "om-os", title: "Om os nu", body: "En helt ny tekst om os.", status: "draft" }, () => page("om-os"), "restored");
    await roundTrip("pages.upsert", { slug: "ny-side", title: "Ny side", body: "Indhold på den nye side." }, () => page("ny-side"), "deleted");
  });

  it.skipIf(missing("pages.delete"))("pages.delete", async () => {
    await roundTrip("pages.delete", { slug: "returret", confirm: true }, () => page("returret"), "recreated");
  });

  it.skipIf(missing("pages.set_layout"))("pages.set_layout (set, and clear back to null)", async () => {
    const layout = { sections: [{ id: "a", type: "text", props: { body: "Hej verden." } }] };
    await roundTrip("pages.set_layout", { slug: "om-os", layout }, () => page("om-os"), "restored");
    expectOk(server, "pages.set_layout", await server.call("pages.set_layout", { slug: "om-os", layout }, { key: admin }));
    await roundTrip("pages.set_layout", { slug: "om-os", layout: null }, () => page("om-os"), "restored");
  });

  it.skipIf(missing("services.create"))("services.create", async () => {
    await roundTrip("services.create", { slug: "ny-service", title: "Ny service", body: "Beskrivelse af servicen." }, () => service("ny-service"), "deleted");
  });

  it.skipIf(missing("services.update"))("services.update", async () => {
    await roundTrip("services.update", { slug: "synsproeve", patch: { title: "Synstest", navOrder: 9, status: "draft" } }, () => service("synsproeve"), "restored");
  });

  it.skipIf(missing("services.delete"))("services.delete", async () => {
    await roundTrip("services.delete", { slug: "brilleservice", confirm: true }, () => service("brilleservice"), "recreated");
  });

  it("each settings update and set_feature", async () => {
    await roundTrip("settings.update_branding", { shopName: "Andet navn", logoUrl: "https://cdn.example.com/l.png" }, () => setting("branding"), "restored");
    await roundTrip("settings.update_shipping", { flatRateDkk: 1, carriers: [] }, () => setting("shipping"), "restored");
    await roundTrip("settings.update_contact", { email: "ny@example.com" }, () => setting("contact"), "restored");
    await roundTrip("settings.update_policies", { terms: "Nye vilkår." }, () => setting("policies"), "restored");
    await roundTrip("settings.set_feature", { key: "product_reviews", enabled: true }, () => db().featureFlag.findUnique({ where: { key: "product_reviews" } }), "restored");
  });
});

describe("audit.revert refuses what it cannot undo", () => {
  it("a second revert of the same entry: 422 already_reverted", async () => {
    const id = await change("discounts.toggle", { code: "SOMMER200" });
    const first = await revert(id);
    expectProblem(await server.call("audit.revert", { id }, { key: reverter }), 422, "already_reverted");
    expectProblem(await server.call("audit.revert", { id: first.revertEntryId }, { key: reverter }), 422, "not_revertible");
  });

  it("two reverts of one entry at the same time: exactly one succeeds", async () => {
    const id = await change("discounts.toggle", { code: "SOMMER200" });
    const answers = await Promise.all([1, 2, 3].map(() => server.call("audit.revert", { id }, { key: reverter })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
    for (const answer of answers.filter((a) => a.status === 422)) expectProblem(answer, 422, "already_reverted");
    expect(await db().auditEntry.count({ where: { revertOfId: id } })).toBe(1);
  });

  it("an entry whose subject changed later: 422 changed_since, until the later change is reverted", async () => {
    const original = await discount("VELKOMMEN10");
    const first = await change("discounts.update", { code: "VELKOMMEN10", patch: { value: 20 } });
    const second = await change("discounts.update", { code: "VELKOMMEN10", patch: { value: 30 } });
    const count = await db().auditEntry.count();
    expectProblem(await server.call("audit.revert", { id: first }, { key: reverter }), 422, "changed_since");
    expect(await db().auditEntry.count()).toBe(count);
    expect((await discount("VELKOMMEN10"))!.value).toBe(30n);
    await revert(second);
    expect((await discount("VELKOMMEN10"))!.value).toBe(20n);
    await revert(first);
    expect(strip(await discount("VELKOMMEN10"))).toEqual(strip(original));
  });

  it("a field changed outside the audit log since the entry: 422 changed_since; untouched counters are kept", async () => {
    const id = await change("discounts.update", { code: "SOMMER200", patch: { value: 25000 } });
    await db().discount.update({ where: { code: "SOMMER200" }, data: { value: 26000n } });
    expectProblem(await server.call("audit.revert", { id }, { key: reverter }), 422, "changed_since");
    const other = await change("discounts.update", { code: "VELKOMMEN10", patch: { value: 40 } });
    expect(await redeemDiscount(db(), "VELKOMMEN10", new Date())).toBe(true);
    const used = (await discount("VELKOMMEN10"))!.usageCount;
    await revert(other);
    expect(await discount("VELKOMMEN10")).toMatchObject({ value: 10n, usageCount: used });
  });

  it("a generic tool entry without a subject snapshot: 422 not_revertible", async () => {
    const entry = await db().auditEntry.create({ data: { tool: "marketing.subscribe", actor: "system:test", door: "system", subjectType: "tool", subjectId: "marketing.subscribe", after: { input: {} } } });
    expectProblem(await server.call("audit.revert", { id: entry.id }, { key: reverter }), 422, "not_revertible");
    expect((await db().auditEntry.findUniqueOrThrow({ where: { id: entry.id } })).revertedAt).toBeNull();
  });

  it("a recreation blocked by a unique value taken since: 409, nothing written", async () => {
    const id = await change("discounts.delete", { code: "VELKOMMEN10", confirm: true });
    await db().discount.create({ data: { code: "VELKOMMEN10", type: "fixed", value: 100n } });
    const count = await db().auditEntry.count();
    expectProblem(await server.call("audit.revert", { id }, { key: reverter }), 409, "conflict");
    expect(await db().auditEntry.count()).toBe(count);
    expect((await db().auditEntry.findUniqueOrThrow({ where: { id } })).revertedAt).toBeNull();
  });

  it("a recreation whose referenced row is gone since: 422 missing_reference, nothing written", async () => {
    const owner = await db().product.create({
      data: { slug: "variant-uden-ejer", name: "Brille", description: "En brille med en variant.", priceDkk: 100n, stock: 1n, draft: true, categoryId: (await category("solbriller"))!.id, variants: { create: { sku: "UE-1" } } },
    });
    const id = await change("products.delete_variant", { slug: "variant-uden-ejer", sku: "UE-1", confirm: true });
    await db().product.delete({ where: { id: owner.id } });
    const count = await db().auditEntry.count();
    expectProblem(await server.call("audit.revert", { id }, { key: reverter }), 422, "missing_reference");
    expect(await db().auditEntry.count()).toBe(count);
    expect((await db().auditEntry.findUniqueOrThrow({ where: { id } })).revertedAt).toBeNull();
  });

  it.skipIf(missing("categories.upsert"))("a created category that has products by now: 422 has_dependents, nothing written", async () => {
    const id = await change("categories.upsert", { slug: "fyldt-kategori", name: "Fyldt kategori" });
    const cat = await category("fyldt-kategori");
    await db().product.create({ data: { slug: "i-fyldt-kategori", name: "Brille", description: "En brille i kategorien.", priceDkk: 100n, stock: 1n, categoryId: cat!.id } });
    const count = await db().auditEntry.count();
    expectProblem(await server.call("audit.revert", { id }, { key: reverter }), 422, "has_dependents");
    expect(await category("fyldt-kategori")).not.toBeNull();
    expect(await db().auditEntry.count()).toBe(count);
    expect((await db().auditEntry.findUniqueOrThrow({ where: { id } })).revertedAt).toBeNull();
  });

  it("order entries: only a legal status change back, recorded in the status history", async () => {
    const order = await db().order.create({
      data: { email: "a@example.com", status: "flagged_review", shippingName: "A", shippingAddress: "Vej 1", shippingZip: "1000", shippingCity: "København K", subtotalDkk: 1000n, shippingDkk: 0n, discountDkk: 0n, totalDkk: 1000n },
    });
    const entry = (before: string | null, after: string | null) =>
      db().auditEntry.create({
        data: {
          tool: "orders.update_status",
          actor: "system:test",
          door: "system",
          subjectType: "order",
          subjectId: order.id,
          ...(before ? { before: { id: order.id, status: before } } : {}),
          ...(after ? { after: { id: order.id, status: after } } : {}),
        },
      });
    const legal = await entry("paid", "flagged_review");
    expect(await revert(legal.id)).toMatchObject({ action: "restored", subjectType: "order" });
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("paid");
    expect(await db().orderStatusChange.findFirst({ where: { orderId: order.id } })).toMatchObject({ fromStatus: "flagged_review", toStatus: "paid" });

    await db().order.update({ where: { id: order.id }, data: { status: "shipped" } });
    const illegal = await entry("paid", "shipped");
    expectProblem(await server.call("audit.revert", { id: illegal.id }, { key: reverter }), 422, "illegal_transition");
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("shipped");
    const created = await entry(null, "shipped");
    expectProblem(await server.call("audit.revert", { id: created.id }, { key: reverter }), 422, "not_revertible");
  });

  it.skipIf(missing("orders.update_status"))("orders.update_status through the tool: reverted when the way back is legal", async () => {
    const order = await db().order.create({
      data: { email: "b@example.com", status: "pending", shippingName: "B", shippingAddress: "Vej 2", shippingZip: "8000", shippingCity: "Aarhus C", subtotalDkk: 1000n, shippingDkk: 0n, discountDkk: 0n, totalDkk: 1000n },
    });
    const id = await change("orders.update_status", { orderId: order.id, status: "flagged_review" });
    await revert(id);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("pending");
  });

  it("an unknown id: 404", async () => {
    expectProblem(await server.call("audit.revert", { id: "nope" }, { key: reverter }), 404, "not_found");
  });

  it("needs audit:revert", async () => {
    const id = await change("discounts.toggle", { code: "SOMMER200" });
    await expectScopeMatrix(server, "audit.revert", { id });
    expect((await db().auditEntry.findUniqueOrThrow({ where: { id } })).revertedAt).not.toBeNull();
  });

  it("rejects bad input", async () => {
    await expectRejected(server, "audit.revert", reverter, [{}, { id: "" }, { id: 5 }, { id: "x".repeat(101) }, { id: "abc", confirm: true }]);
  });
});
