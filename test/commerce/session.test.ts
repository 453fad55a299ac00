// Storefront sessions over HTTP: the signed cookie, the persisted secret, and the e-mailed one-time login code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/http/session.ts";
import { sessionSecret, StorefrontSessions } from "../../src/tools/user/session-store.ts";
import { Background } from "../../src/core/background.ts";
import { createLogger } from "../../src/core/log.ts";
import { useServer } from "../support/server.ts";
import { newSession, plainProducts, sessionIdOf } from "../support/session.ts";
import { startSmtp, type SmtpCapture } from "../support/smtp-capture.ts";

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtp();
});
const { server } = useServer({ config: () => ({ smtpUrl: smtp.url, sessionSecret: "" }) });
beforeAll(async () => {
  await server.prisma.customer.create({ data: { email: "kunde@example.dk", name: "Kunde" } });
});
afterAll(async () => {
  await smtp.close();
});

const post = (path: string, body: unknown, cookie?: string) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

async function requestCode(cookie: string, email: string): Promise<string> {
  const response = await post("/api/v1/session/login", { email }, cookie);
  expect(response.status).toBe(202);
  await server.runtime.background.idle();
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
    const { prisma } = server.database;
    const seen = async () => (await prisma.storefrontSession.findUniqueOrThrow({ where: { id } })).lastSeenAt.getTime();
    const resolve = async () => {
      const session = await server.runtime.sessions.resolveCookie(cookie);
      await server.runtime.background.idle();
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
    const secure = new SessionManager(new StorefrontSessions(database), "a".repeat(32), true, new Background(createLogger("silent")));
    expect(secure.cookie("abc")).toMatch(/; Secure$/);
    const other = new SessionManager(new StorefrontSessions(database), "b".repeat(32), false, new Background(createLogger("silent")));
    expect(secure.verify(secure.sign("abc"))).toBe("abc");
    expect(secure.verify(other.sign("abc"))).toBeNull();
  });

  it("generates the secret once and keeps it in the Setting row session_secret", async () => {
    const prisma = server.prisma;
    const row = await prisma.setting.findUniqueOrThrow({ where: { section: "session_secret" } });
    expect(row.value).toEqual({ secret: server.runtime.secret });
    expect(await sessionSecret(prisma, "")).toBe(server.runtime.secret);
    expect(await sessionSecret(prisma, "from-env-secret-value")).toBe("from-env-secret-value");
  });

  it("signs the session in with an e-mailed 6-digit code, under a new session id and cookie", async () => {
    const cookie = await newSession(server);
    const code = await requestCode(cookie, "Kunde@Example.dk");
    const stored = await server.prisma.loginCode.findFirstOrThrow({ where: { sessionId: sessionIdOf(cookie) } });
    expect(stored.codeHash).not.toContain(code);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeGreaterThan(9 * 60_000);
    const wrong = await post("/api/v1/session/verify", { email: "kunde@example.dk", code: code === "000000" ? "111111" : "000000" }, cookie);
    expect(wrong.status).toBe(422);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const ok = await post("/api/v1/session/verify", { email: "kunde@example.dk", code }, cookie);
    expect(ok.status).toBe(200);
    const fresh = ok.headers.get("set-cookie")!.split(";")[0]!;
    expect(sessionIdOf(fresh)).not.toBe(sessionIdOf(cookie));
    const customer = await server.prisma.customer.findUniqueOrThrow({ where: { email: "kunde@example.dk" } });
    expect(await ok.json()).toEqual({ ok: true, result: { sessionId: sessionIdOf(fresh), created: false, customer: { id: customer.id, email: customer.email, name: "Kunde" } } });
    expect((await server.prisma.storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(fresh) } })).customerId).toBe(customer.id);
    expect((await post("/api/v1/session/verify", { email: "kunde@example.dk", code }, fresh)).status).toBe(422);
    expect(await server.prisma.emailMessage.count({ where: { kind: "login_code", to: "kunde@example.dk" } })).toBeGreaterThan(0);
  });

  it("makes the id known before sign-in worthless: no customer, no cart, no orders for its holder (session fixation)", async () => {
    const planted = await newSession(server);
    const [product] = await plainProducts(server);
    expect((await server.call("cart.add", { productSlug: product!.slug, quantity: 2 }, { cookie: planted })).status).toBe(200);
    const code = await requestCode(planted, "kunde@example.dk");
    const ok = await post("/api/v1/session/verify", { email: "kunde@example.dk", code }, planted);
    expect(ok.status).toBe(200);
    const mine = ok.headers.get("set-cookie")!.split(";")[0]!;
    // The signed-in shopper keeps the cart under the new id.
    const cart = await server.call("cart.get_summary", {}, { cookie: mine });
    expect((cart.body.result as { lines: Array<{ productSlug: string; quantity: number }> }).lines).toMatchObject([{ productSlug: product!.slug, quantity: 2 }]);
    expect((await server.call("user.list_orders", {}, { cookie: mine })).status).toBe(200);
    // Whoever still holds the old cookie holds nothing: it names no session any more.
    expect(await server.prisma.storefrontSession.findUnique({ where: { id: sessionIdOf(planted) } })).toBeNull();
    expect((await server.call("user.list_orders", {}, { cookie: planted })).status).toBe(401);
    const restart = await fetch(`${server.url}/api/v1/session`, { method: "POST", headers: { cookie: planted } });
    expect(restart.status).toBe(201);
    expect(((await restart.json()) as { result: { customer: unknown } }).result.customer).toBeNull();
  });

  it("sends at most 10 codes per e-mail an hour, whatever the sessions and client addresses", async () => {
    await server.prisma.customer.create({ data: { email: "mange.koder@example.dk", name: "Mange" } });
    const before = smtp.messages.length;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await fetch(`${server.url}/api/v1/session/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i + 1}` },
        body: JSON.stringify({ email: i % 2 ? "Mange.Koder@example.dk" : "mange.koder@example.dk" }),
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(3000);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(202), 429]);
    await server.runtime.background.idle();
    expect(smtp.messages.filter((m) => m.to.includes("mange.koder@example.dk")).length).toBe(10);
    expect(smtp.messages.length - before).toBe(10);
    // Another e-mail is not affected.
    expect((await post("/api/v1/session/login", { email: "kunde@example.dk" }, await newSession(server))).status).toBe(202);
  });

  it("checks at most 20 guesses per e-mail an hour, whatever the sessions and client addresses; the right code then waits too", async () => {
    await server.prisma.customer.create({ data: { email: "gaet@example.dk", name: "Gæt" } });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const cookie = await newSession(server);
      const real = i % 5 === 0 ? await requestCode(cookie, "gaet@example.dk") : "";
      const response = await fetch(`${server.url}/api/v1/session/verify`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, "x-forwarded-for": `203.0.113.${i + 1}` },
        body: JSON.stringify({ email: "gaet@example.dk", code: real === "000000" ? "111111" : "000000" }),
      });
      statuses.push(response.status);
    }
    expect(statuses.every((status) => status === 422)).toBe(true);
    const cookie = await newSession(server);
    const code = await requestCode(cookie, "gaet@example.dk");
    const refused = await post("/api/v1/session/verify", { email: "gaet@example.dk", code }, cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await server.prisma.storefrontSession.findUniqueOrThrow({ where: { id: sessionIdOf(cookie) } })).customerId).toBeNull();
  });

  it("answers the same for unknown e-mails and sends nothing", async () => {
    const cookie = await newSession(server);
    const before = smtp.messages.length;
    const response = await post("/api/v1/session/login", { email: "nobody@example.dk" }, cookie);
    expect(response.status).toBe(202);
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect(Object.keys(body.result).sort()).toEqual(["detail", "email", "expiresAt"]);
    await server.runtime.background.idle();
    expect(smtp.messages.length).toBe(before);
    const verify = await post("/api/v1/session/verify", { email: "nobody@example.dk", code: "123456" }, cookie);
    expect(verify.status).toBe(422);
    expect(((await verify.json()) as { code: string }).code).toBe("invalid_code");
  });

  it("locks a code after 5 wrong attempts and expires it after 10 minutes", async () => {
    const prisma = server.prisma;
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
