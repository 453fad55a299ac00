// customer.save_address through real HTTP: a shopper's own book or staff by id, Danish addresses checked, one default,
// at most 20, someone else's address answered as unknown; every refusal writes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { staff } } = useServer({ keys: { staff: ["customer:write", "customer:read"] } });
type Address = { id: string; name: string; address: string; zip: string; city: string; region: string | null; country: string; phone: string | null; isDefault: boolean };
const prisma = () => server.prisma;
const HOME = { name: "Anna Holm", address: "Vestergade 4", zip: "8000", city: "aarhus c" };

let anna: string;
let cookie: string;
beforeAll(async () => {
  anna = (await createCustomer(server, { email: "anna.holm@example.dk" })).id;
  cookie = await sessionFor(server, anna);
});
const save = (input: object, as: { cookie?: string; key?: string } = { cookie }) => server.call("customer.save_address", input, as);
const book = async (as: { cookie?: string; key?: string } = { cookie }, customerId?: string) =>
  expectOk<Address[]>(server, "customer.list_addresses", await server.call("customer.list_addresses", customerId ? { customerId } : {}, as));

describe("customer.save_address", () => {
  it("adds a shopper's first address as the default, with the official city name, audited", async () => {
    const saved = expectOk<Address>(server, "customer.save_address", await save(HOME));
    expect(saved).toEqual({ id: expect.any(String), name: "Anna Holm", address: "Vestergade 4", zip: "8000", city: "Aarhus C", region: null, country: "DK", phone: null, isDefault: true });
    expect(await lastAudit(server)).toMatchObject({ tool: "customer.save_address", subjectType: "address", subjectId: saved.id, before: null });
  });

  it("keeps one default: a new default takes it over, changing an address keeps its flag", async () => {
    const [first] = await book();
    const second = expectOk<Address>(server, "customer.save_address", await save({ name: "Anna Holm", address: "Kongensgade 1", zip: "5000", city: "Odense C", isDefault: true }));
    const abroad = expectOk<Address>(server, "customer.save_address", await save({ name: "Anna Holm", address: "Storgatan 3", zip: "211 34", city: "Malmö", country: "SE", phone: "+46 40 12 34 56" }));
    expect(abroad).toMatchObject({ country: "SE", zip: "211 34", isDefault: false });
    const changed = expectOk<Address>(server, "customer.save_address", await save({ id: second.id, name: "Anna H. Holm", address: "Kongensgade 1, 2. tv", zip: "5000", city: "Odense C" }));
    expect(changed).toMatchObject({ id: second.id, name: "Anna H. Holm", isDefault: true });
    const all = await book();
    expect(all.filter((a) => a.isDefault).map((a) => a.id)).toEqual([second.id]);
    expect(all[0]!.id).toBe(second.id);
    expect(all.map((a) => a.id).sort()).toEqual([first!.id, second.id, abroad.id].sort());
  });

  it("lets staff save into any customer's book by id", async () => {
    const bo = await createCustomer(server, { email: "bo.staff@example.dk" });
    const saved = expectOk<Address>(server, "customer.save_address", await save({ ...HOME, customerId: bo.id }, { key: staff }));
    expect((await book({ key: staff }, bo.id)).map((a) => a.id)).toEqual([saved.id]);
  });

  it("refuses a wrong Danish postal code, someone else's address, a missing customer and a full book, writing nothing", async () => {
    const other = await createCustomer(server, { email: "other.book@example.dk" });
    const theirs = expectOk<Address>(server, "customer.save_address", await save({ ...HOME, customerId: other.id }, { key: staff }));
    const snapshot = () => prisma().address.findMany({ orderBy: { id: "asc" } });
    const before = await snapshot();
    expectProblem(await save({ ...HOME, zip: "9999" }), 422, "invalid_address");
    expectProblem(await save({ ...HOME, id: theirs.id }), 404, "not_found");
    expectProblem(await save({ ...HOME, customerId: other.id }), 404, "not_found");
    expectProblem(await save(HOME, { key: staff }), 400, "invalid_input");
    expectProblem(await save({ ...HOME, customerId: "nobody" }, { key: staff }), 404, "not_found");
    expectProblem(await save(HOME, { cookie: await sessionFor(server, null) }), 422, "no_customer");
    expect(await snapshot()).toEqual(before);

    const full = await createCustomer(server, { email: "full.book@example.dk" });
    await prisma().address.createMany({ data: Array.from({ length: 20 }, (_, i) => ({ customerId: full.id, name: "X", address: `Gade ${i}`, zip: "8000", city: "Aarhus C" })) });
    expectProblem(await save({ ...HOME, customerId: full.id }, { key: staff }), 422, "too_many_addresses");
    expect(await prisma().address.count({ where: { customerId: full.id } })).toBe(20);
  });

  it("keeps exactly one default when saves race", async () => {
    const racer = await createCustomer(server, { email: "racer@example.dk" });
    const session = await sessionFor(server, racer.id);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => save({ ...HOME, address: `Vestergade ${i + 1}`, isDefault: true }, { cookie: session })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await prisma().address.count({ where: { customerId: racer.id, isDefault: true } })).toBe(1);
  });

  it("needs customer:write (a storefront session has it)", async () => {
    await expectScopeMatrix(server, "customer.save_address", { ...HOME, customerId: anna });
  });

  it("rejects bad input with a 400 problem and writes nothing", async () => {
    const count = () => prisma().address.count();
    await expectRejected(server, "customer.save_address", staff, [{}, { ...HOME, customerId: anna, name: "" }, { ...HOME, customerId: anna, zip: "8000!" }, { ...HOME, customerId: anna, country: "dk" }, { ...HOME, customerId: anna, phone: "abc" }, { ...HOME, customerId: anna, isDefault: "yes" }, { ...HOME, customerId: anna, extra: 1 }], count);
  });
});
