// customer.lookup_by_phone through real HTTP: digits compared with or without +45; a session only sees its own customer.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../orders/fixtures.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["customer:read"] } });
let anna: { id: string };
let bo: { id: string };
beforeAll(async () => {
  anna = await createCustomer(server, { email: "anna@example.dk", phone: "+45 11 22 33 44" });
  bo = await createCustomer(server, { email: "bo@example.dk", phone: "55667788" });
  await createOrder(server, { userId: anna.id, status: "paid" });
});

const lookup = (phone: string, auth: { key?: string; cookie?: string }) => server.call("customer.lookup_by_phone", { phone }, auth);

describe("customer.lookup_by_phone", () => {
  it("matches on digits, with or without the Danish country code", async () => {
    for (const phone of ["11223344", "+4511223344", "0045 11 22 33 44", "(+45) 11-22-33-44"]) {
      expect(expectOk(server, "customer.lookup_by_phone", await lookup(phone, { key }))).toMatchObject({ id: anna.id, orderCount: 1 });
    }
    expect(expectOk(server, "customer.lookup_by_phone", await lookup("+45 55 66 77 88", { key }))).toMatchObject({ id: bo.id, orderCount: 0 });
  });

  it("returns the newest customer when several share a number", async () => {
    const newer = await createCustomer(server, { email: "ny@example.dk", phone: "99887766", createdAt: new Date(Date.now() + 1000) });
    await createCustomer(server, { email: "gammel@example.dk", phone: "99 88 77 66", createdAt: new Date("2020-01-01T00:00:00Z") });
    expect(expectOk(server, "customer.lookup_by_phone", await lookup("99887766", { key }))).toMatchObject({ id: newer.id });
  });

  it("answers 404 for an unknown number", async () => {
    expectProblem(await lookup("12121212", { key }), 404, "not_found");
  });

  it("shows a storefront session only its own customer", async () => {
    const cookie = await sessionFor(server, anna.id);
    expect(expectOk(server, "customer.lookup_by_phone", await lookup("11223344", { cookie }))).toMatchObject({ id: anna.id });
    expectProblem(await lookup("55667788", { cookie }), 404, "not_found");
    expectProblem(await lookup("11223344", { cookie: await sessionFor(server, null) }), 404, "not_found");
  });

  it("needs customer:read", async () => {
    await expectScopeMatrix(server, "customer.lookup_by_phone", { phone: "11223344" });
  });

  it("rejects bad input with a 400 problem", async () => {
    await expectRejected(server, "customer.lookup_by_phone", key, [{}, { phone: "1234" }, { phone: "abcdefghij" }, { phone: "--------" }, { phone: 11223344 }, { phone: "1".repeat(21) }, { phone: "11223344", email: "a@b.dk" }]);
  });
});
