// Storefront sessions over HTTP: the signed cookie, the persisted secret, and the e-mailed one-time login code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionManager, sessionSecret } from "../../src/api/session.ts";
import { createLogger } from "../../src/core/log.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { newSession, sessionIdOf } from "../support/session.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";

let server: TestServer;
let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url, sessionSecret: "" });
  await server.runtime.database.prisma.customer.create({ data: { email: "kunde@example.dk", name: "Kunde" } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const post = (path: string, body: unknown, cookie?: string) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

async function requestCode(cookie: string, email: string): Promise<string> {
  const response = await post("/api/v1/session/login", { email }, cookie);
  expect(response.status).toBe(202);
  await server.runtime.sessions.idle();
  const mail = await smtp.waitFor((m) => m.to.includes(email.toLowerCase()) && !used.has(m.raw));
  used.add(mail.raw);
  return /Din login-kode: (\d{6})/.exec(mail.raw)![1]!;
}
const used = new Set<string>();

describe("storefront sessions", () => {
  it("issues an HttpOnly, SameSite=Lax signed cookie and resumes the session with it", async () => {
    const response = await fetch(`${server.url}/api/v1/session`, { method: "POST" });
    expect(response.status).toBe(201);
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^shop_session=[^;]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const body = (await response.json()) as { ok: boolean; result: { sessionId: string; created: boolean; customer: null } };
    const cookie = setCookie.split(";")[0]!;
    expect(body).toEqual({ ok: true, result: { sessionId: sessionIdOf(cookie), created: true, customer: null } });
    const again = await fetch(`${server.url}/api/v1/session`, { method: "POST", headers: { cookie } });
    expect(again.status).toBe(200);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(((await again.json()) as { result: { sessionId: string } }).result.sessionId).toBe(sessionIdOf(cookie));
    const tampered = await fetch(`${server.url}/api/v1/session`, { method: "POST", headers: { cookie: `shop_session=${sessionIdOf(cookie)}.AAAA` } });
    expect(tampered.status).toBe(201);
  });

  it("notes when a session was last used, at most every five minutes, and forgets a deleted session", async () => {
    const cookie = await newSession(server);
    const id = sessionIdOf(cookie);
    const { prisma } = server.runtime.database;
    const seen = async () => (await prisma.storefrontSession.findUniqueOrThrow({ where: { id } })).lastSeenAt.getTime();
    const resolve = async () => {
      const session = await server.runtime.sessions.resolveCookie(cookie);
      await server.runtime.sessions.idle();
      return session;
    };
    const fourMinutesAgo = new Date(Date.now() - 4 * 60_000);
    await prisma.storefrontSession.update({ where: { id }, data: { lastSeenAt: fourMinutesAgo } });
    expect(await resolve()).toEqual({ id, customerId: null, persistent: true });
    expect(await seen()).toBe(fourMinutesAgo.getTime());
    await prisma.storefrontSession.update({ where: { id }, data: { lastSeenAt: new Date(Date.now() - 6 * 60_000) } });
    const before = Date.now();
    await resolve();
    expect(await seen()).toBeGreaterThanOrEqual(before - 1000);
    await prisma.storefrontSession.delete({ where: { id } });
    expect(await resolve()).toBeUndefined();
  });

  it("marks the cookie Secure for an https shop and rejects cookies signed with another secret", () => {
    const { database } = server.runtime;
    const secure = new SessionManager(database, "a".repeat(32), true, createLogger("silent"));
    expect(secure.cookie("abc")).toMatch(/; Secure$/);
    const other = new SessionManager(database, "b".repeat(32), false, createLogger("silent"));
    expect(secure.verify(secure.sign("abc"))).toBe("abc");
    expect(secure.verify(other.sign("abc"))).toBeNull();
  });

  it("generates the secret once and keeps it in the Setting row session_secret", async () => {
    const prisma = server.runtime.database.prisma;
    const row = await prisma.setting.findUniqueOrThrow({ where: { section: "session_secret" } });
    expect(row.value).toEqual({ secret: server.runtime.secret });
    expect(await sessionSecret(prisma, "")).toBe(server.runtime.secret);
    expect(await sessionSecret(prisma, "from-env-secret-value")).toBe("from-env-secret-value");
  });

  it("binds the session to a customer with an e-mailed 6-digit code", async () => {
    const cookie = await newSession(server);
    const code = await requestCode(cookie, "Kunde@Example.dk");
    const stored = await server.runtime.database.prisma.loginCode.findFirstOrThrow({ where: { sessionId: sessionIdOf(cookie) } });
    expect(stored.codeHash).not.toContain(code);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeGreaterThan(9 * 60_000);
    const wrong = await post("/api/v1/session/verify", { email: "kunde@example.dk", code: code === "000000" ? "111111" : "000000" }, cookie);
    expect(wrong.status).toBe(422);
    const ok = await post("/api/v1/session/verify", { email: "kunde@example.dk", code }, cookie);
    expect(ok.status).toBe(200);
    const customer = await server.runtime.database.prisma.customer.findUniqueOrThrow({ where: { email: "kunde@example.dk" } });
    expect(await ok.json()).toEqual({ ok: true, result: { sessionId: sessionIdOf(cookie), created: false, customer: { id: customer.id, email: customer.email, name: "Kunde" } } });
    expect((await server.runtime.database.prisma.storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBe(customer.id);
    expect((await post("/api/v1/session/verify", { email: "kunde@example.dk", code }, cookie)).status).toBe(422);
    expect(await server.runtime.database.prisma.emailMessage.count({ where: { kind: "login_code", to: "kunde@example.dk" } })).toBeGreaterThan(0);
  });

  it("answers the same for unknown e-mails and sends nothing", async () => {
    const cookie = await newSession(server);
    const before = smtp.messages.length;
    const response = await post("/api/v1/session/login", { email: "nobody@example.dk" }, cookie);
    expect(response.status).toBe(202);
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect(Object.keys(body.result).sort()).toEqual(["detail", "email", "expiresAt"]);
    await server.runtime.sessions.idle();
    expect(smtp.messages.length).toBe(before);
    const verify = await post("/api/v1/session/verify", { email: "nobody@example.dk", code: "123456" }, cookie);
    expect(verify.status).toBe(422);
    expect(((await verify.json()) as { code: string }).code).toBe("invalid_code");
  });

  it("locks a code after 5 wrong attempts and expires it after 10 minutes", async () => {
    const prisma = server.runtime.database.prisma;
    const cookie = await newSession(server);
    const code = await requestCode(cookie, "kunde@example.dk");
    const wrongCode = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await post("/api/v1/session/verify", { email: "kunde@example.dk", code: wrongCode }, cookie)).status).toBe(422);
    const locked = await post("/api/v1/session/verify", { email: "kunde@example.dk", code }, cookie);
    expect(((await locked.json()) as { code: string }).code).toBe("too_many_attempts");
    const fresh = await requestCode(cookie, "kunde@example.dk");
    await prisma.loginCode.updateMany({ where: { sessionId: sessionIdOf(cookie), usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await post("/api/v1/session/verify", { email: "kunde@example.dk", code: fresh }, cookie);
    expect(((await expired.json()) as { code: string }).code).toBe("invalid_code");
  });

  it("rejects malformed bodies with 400 problems", async () => {
    const cookie = await newSession(server);
    for (const [path, body] of [["/api/v1/session/login", {}], ["/api/v1/session/login", { email: "x" }], ["/api/v1/session/verify", { email: "kunde@example.dk", code: "12345" }], ["/api/v1/session/verify", { email: "kunde@example.dk", code: "123456", extra: 1 }]] as const) {
      const response = await post(path, body, cookie);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
    const broken = await fetch(`${server.url}/api/v1/session/login`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{" });
    expect(broken.status).toBe(400);
  });
});
