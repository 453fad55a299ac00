// user.request_login_code through real HTTP: a code per session, e-mailed only to customers, limited per e-mail.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { newSession, sessionIdOf } from "../../support/session.ts";
import { createCustomer, createOrder } from "../orders/fixtures.ts";

const { server } = useServer();
let cookie: string;
beforeAll(async () => {
  await createCustomer(server, { email: "kode@example.dk" });
  cookie = await newSession(server);
});

const prisma = () => server.prisma;
const mails = (to: string) => prisma().emailMessage.count({ where: { kind: "login_code", to } });

describe("user.request_login_code", () => {
  it("stores a hashed code for the session, valid 10 minutes, and e-mails it after commit to a customer", async () => {
    const result = expectOk<{ email: string; expiresAt: string }>(server, "user.request_login_code", await server.call("user.request_login_code", { email: "Kode@Example.dk" }, { cookie }));
    expect(result.email).toBe("kode@example.dk");
    const row = await prisma().loginCode.findFirstOrThrow({ where: { sessionId: sessionIdOf(cookie) }, orderBy: { createdAt: "desc" } });
    expect(row.expiresAt.toISOString()).toBe(result.expiresAt);
    expect(row.codeHash).not.toMatch(/^\d{6}$/);
    await server.runtime.background.idle();
    expect(await mails("kode@example.dk")).toBe(1);
  });

  it("answers the same for an address no customer has, and sends nothing", async () => {
    const result = expectOk(server, "user.request_login_code", await server.call("user.request_login_code", { email: "ingen@example.dk" }, { cookie }));
    expect(Object.keys(result as object).sort()).toEqual(["email", "expiresAt"]);
    await server.runtime.background.idle();
    expect(await mails("ingen@example.dk")).toBe(0);
  });

  it("with an order number, e-mails the code only when that order was placed with the address, answering the same", async () => {
    const customer = await createCustomer(server, { email: "gaest@example.dk" });
    const order = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id });
    const { number } = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    const other = await createOrder(server, { status: "paid", email: "en.anden@example.dk" });
    const otherNumber = (await prisma().order.findUniqueOrThrow({ where: { id: other.id } })).number;
    for (const orderNumber of [otherNumber, 999_999]) {
      const result = expectOk(server, "user.request_login_code", await server.call("user.request_login_code", { email: customer.email, orderNumber }, { cookie }));
      expect(Object.keys(result as object).sort()).toEqual(["email", "expiresAt"]);
    }
    await server.runtime.background.idle();
    expect(await mails(customer.email)).toBe(0);
    expectOk(server, "user.request_login_code", await server.call("user.request_login_code", { email: "GAEST@example.dk", orderNumber: number }, { cookie }));
    await server.runtime.background.idle();
    expect(await mails(customer.email)).toBe(1);
    expectProblem(await server.call("user.request_login_code", { email: customer.email, orderNumber: 0 }, { cookie }), 400);
    expectProblem(await server.call("user.request_login_code", { email: customer.email, orderNumber: "#1001" }, { cookie }), 400);
  });

  it("refuses 429 past 10 codes per e-mail an hour, across sessions", async () => {
    await createCustomer(server, { email: "ti@example.dk" });
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await server.call("user.request_login_code", { email: "ti@example.dk" }, { cookie: await newSession(server) })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
    await server.runtime.background.idle();
    expect(await mails("ti@example.dk")).toBe(10);
  });

  it("refuses 422 no_session for a key without a storefront session", async () => {
    expectProblem(await server.call("user.request_login_code", { email: "kode@example.dk" }, { key: await server.key("*") }), 422, "no_session");
  });

  it("needs cart:write", async () => {
    await expectScopeMatrix(server, "user.request_login_code", { email: "matrix@example.dk" });
  });

  it("rejects bad input with a 400 problem and stores no code", async () => {
    const codes = () => prisma().loginCode.count();
    for (const input of [{}, { email: "x" }, { email: "a@b.dk", extra: 1 }, { email: `${"a".repeat(250)}@b.dk` }]) {
      expectProblem(await server.call("user.request_login_code", input, { cookie }), 400);
    }
    await expectRejected(server, "user.request_login_code", await server.key("cart:write"), [{}, { email: 5 }, { email: "a\u0000@b.dk" }], codes);
  });
});
