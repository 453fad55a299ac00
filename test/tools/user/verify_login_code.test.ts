// user.verify_login_code through real HTTP: signs the session in under a new id and cookie; wrong, used and locked codes refused.
import { beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { mcpCallRaw } from "../../support/mcp.ts";
import { useServer } from "../../support/server.ts";
import { newSession, sessionIdOf } from "../../support/session.ts";
import { createCustomer } from "../orders/fixtures.ts";

const { server } = useServer();
let customerId: string;
beforeAll(async () => {
  customerId = (await createCustomer(server, { email: "ind@example.dk", name: "Ind" })).id;
});

const prisma = () => server.prisma;

/** A session with a fresh code for ind@example.dk whose plain value the test knows (the stored hash is replaced). */
async function sessionWithCode(): Promise<{ cookie: string; code: string }> {
  const cookie = await newSession(server);
  expect((await server.call("user.request_login_code", { email: "ind@example.dk" }, { cookie })).status).toBe(200);
  const code = "482913";
  const row = await prisma().loginCode.findFirstOrThrow({ where: { sessionId: sessionIdOf(cookie) }, orderBy: { createdAt: "desc" } });
  await prisma().loginCode.update({ where: { id: row.id }, data: { codeHash: server.runtime.collaborators.sign(`login:${sessionIdOf(cookie)}:ind@example.dk:${code}`) } });
  return { cookie, code };
}

describe("user.verify_login_code", () => {
  it("binds the customer under a new session id, sets its cookie, and the old id is gone", async () => {
    const { cookie, code } = await sessionWithCode();
    const response = await server.call("user.verify_login_code", { email: "IND@example.dk", code }, { cookie });
    const result = expectOk<{ sessionId: string; customer: { id: string; email: string; name: string | null } }>(server, "user.verify_login_code", response);
    expect(result.customer).toEqual({ id: customerId, email: "ind@example.dk", name: "Ind" });
    expect(result.sessionId).not.toBe(sessionIdOf(cookie));
    const fresh = response.headers.get("set-cookie")!.split(";")[0]!;
    expect(sessionIdOf(fresh)).toBe(result.sessionId);
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: result.sessionId } })).customerId).toBe(customerId);
    expect(await prisma().storefrontSession.findUnique({ where: { id: sessionIdOf(cookie) } })).toBeNull();
    expect((await server.call("user.list_orders", {}, { cookie: fresh })).status).toBe(200);
  });

  it("refuses a wrong code (422 invalid_code), then locks the code after 5 tries (too_many_attempts)", async () => {
    const { cookie, code } = await sessionWithCode();
    for (let i = 0; i < 5; i++) expectProblem(await server.call("user.verify_login_code", { email: "ind@example.dk", code: "000000" }, { cookie }), 422, "invalid_code");
    expectProblem(await server.call("user.verify_login_code", { email: "ind@example.dk", code }, { cookie }), 422, "too_many_attempts");
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBeNull();
  });

  it("refuses 429 past 20 tries per e-mail an hour, counted before any code is looked up", async () => {
    const cookie = await newSession(server);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await server.call("user.verify_login_code", { email: "gaetter@example.dk", code: "000000" }, { cookie })).status);
    expect(statuses).toEqual([...Array<number>(20).fill(422), 429]);
  });

  it("refuses a used or expired code, and a code of another session", async () => {
    const { cookie, code } = await sessionWithCode();
    const other = await newSession(server);
    expectProblem(await server.call("user.verify_login_code", { email: "ind@example.dk", code }, { cookie: other }), 422, "invalid_code");
    await prisma().loginCode.updateMany({ where: { sessionId: sessionIdOf(cookie) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectProblem(await server.call("user.verify_login_code", { email: "ind@example.dk", code }, { cookie }), 422, "invalid_code");
  });

  it("is refused over MCP, which cannot set the new cookie, and the session stays as it was", async () => {
    const { cookie, code } = await sessionWithCode();
    const answer = await mcpCallRaw(server, "user.verify_login_code", { email: "ind@example.dk", code }, { headers: { cookie } });
    expect(answer.body.result?.isError).toBe(true);
    expect(answer.body.result?.structuredContent).toMatchObject({ status: 422, code: "cookie_door_needed" });
    expect((await prisma().storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBeNull();
    expect(expectOk(server, "user.verify_login_code", await server.call("user.verify_login_code", { email: "ind@example.dk", code }, { cookie }))).toMatchObject({ customer: { id: customerId } });
  });

  it("refuses 422 no_session for a key without a storefront session", async () => {
    expectProblem(await server.call("user.verify_login_code", { email: "ind@example.dk", code: "123456" }, { key: await server.key("*") }), 422, "no_session");
  });

  it("needs cart:write", async () => {
    await expectScopeMatrix(server, "user.verify_login_code", { email: "matrix@example.dk", code: "123456" });
  });

  it("rejects bad input with a 400 problem and binds nothing", async () => {
    const { cookie } = await sessionWithCode();
    const bound = () => prisma().storefrontSession.count({ where: { customerId: { not: null } } });
    for (const input of [{ email: "ind@example.dk" }, { email: "ind@example.dk", code: "12345" }, { email: "ind@example.dk", code: "1234567" }, { email: "x", code: "123456" }]) {
      expectProblem(await server.call("user.verify_login_code", input, { cookie }), 400);
    }
    await expectRejected(server, "user.verify_login_code", await server.key("cart:write"), [{}, { email: "ind@example.dk", code: 123456 }, { email: "ind@example.dk", code: "12345\u0000" }], bound);
  });
});
