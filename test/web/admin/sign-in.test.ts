// Staff sign-in over real HTTP: the login form, the shop_admin cookie, sign-out, CSRF refusals, the generic error,
// the staff resolver other doors share, and what a staff cookie does not open.
import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../../src/tools/staff/sessions.ts";
import { AdminClient, csrfOf, PASSWORD, signedInClient, staffUser } from "../../support/admin.ts";
import { expectProblem } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";

const { server } = useServer();
beforeAll(async () => {
  await staffUser(server, "ejer@nordlys.dk");
});

function cookieOf(page: { headers: Headers }, name: string): string | undefined {
  return page.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

describe("admin pages without a staff session", () => {
  it("redirect a browser to the login page and answer scripts 401", async () => {
    const browser = new AdminClient(server);
    const page = await browser.get("/admin/orders?status=paid");
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/admin/login?next=${encodeURIComponent("/admin/orders?status=paid")}`);

    for (const accept of ["application/json", "*/*"]) {
      const response = await fetch(`${server.url}/admin`, { headers: { accept } });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ ok: false, status: 401, code: "unauthorized" });
    }
    const post = await fetch(`${server.url}/admin/logout`, { method: "POST", headers: { accept: "application/json" } });
    expect(post.status).toBe(401);
  });

  it("serve the login form with a CSRF token, a strict CSP and no framing", async () => {
    const page = await new AdminClient(server).get("/admin/login");
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.html).not.toMatch(/\sstyle=/);
    expect(csrfOf(page.html)).toMatch(/^[0-9a-z]+\.[\w-]{43}$/);
    expect(cookieOf(page, "shop_admin_pre")).toMatch(/HttpOnly; SameSite=Lax/);
  });
});

describe("signing in", () => {
  it("sets an HttpOnly, SameSite=Lax shop_admin cookie whose token is stored only as a hash, and opens the admin", async () => {
    const client = new AdminClient(server);
    const page = await client.signIn("Ejer@Nordlys.dk ");
    expect(page.status).toBe(303);
    expect(page.location).toBe("/admin");
    const cookie = cookieOf(page, "shop_admin")!;
    expect(cookie).toMatch(/^shop_admin=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    const token = client.cookies.get("shop_admin")!;
    const row = await server.prisma.staffSession.findUniqueOrThrow({ where: { tokenHash: hashToken(token) }, include: { staff: true } });
    expect(row.staff.email).toBe("ejer@nordlys.dk");
    expect(JSON.stringify(row)).not.toContain(token);

    const home = await client.get("/admin");
    expect(home.status).toBe(200);
    expect(home.html).toContain("ejer@nordlys.dk");
    expect(home.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // Signed in, the login page sends the browser on.
    expect((await client.get("/admin/login?next=/admin/orders")).location).toBe("/admin/orders");
  });

  it("follows only local admin paths after sign-in", async () => {
    const cases: Array<[string, string]> = [
      ["/admin/orders?status=paid", "/admin/orders?status=paid"],
      ["https://evil.example/admin", "/admin"],
      ["//evil.example/admin", "/admin"],
      ["/administrator", "/admin"],
      ["/admin\\@evil.example", "/admin"],
    ];
    for (const [next, expected] of cases) {
      const client = new AdminClient(server);
      const page = await client.submit("/admin/login", "/admin/login", { email: "ejer@nordlys.dk", password: PASSWORD, next });
      expect(page.location, next).toBe(expected);
    }
  });

  it("answers a wrong password and an unknown e-mail with the same generic error, and no session", async () => {
    const wrongPassword = await new AdminClient(server).signIn("ejer@nordlys.dk", "not the password");
    const unknownEmail = await new AdminClient(server).signIn("nobody@nordlys.dk", PASSWORD);
    for (const page of [wrongPassword, unknownEmail]) {
      expect(page.status).toBe(401);
      expect(cookieOf(page, "shop_admin")).toBeUndefined();
      expect(page.html).toContain("E-mail eller adgangskode er forkert.");
    }
    const errorOf = (html: string) => /<div class="notice notice-error"[^>]*>([^<]*)<\/div>/.exec(html)![1];
    expect(errorOf(wrongPassword.html)).toBe(errorOf(unknownEmail.html));
    // The e-mail is kept in the form so it can be corrected; the password never is.
    expect(wrongPassword.html).toContain('value="ejer@nordlys.dk"');
    expect(wrongPassword.html).not.toContain("not the password");
  });
});

describe("CSRF", () => {
  it("refuses a login post without any cookie, without the form's token, or with a token of another browser", async () => {
    const bare = await new AdminClient(server).request("POST", "/admin/login", { form: { email: "ejer@nordlys.dk", password: PASSWORD } });
    expect(bare.status).toBe(403);
    const sessions = await server.prisma.staffSession.count();
    const client = new AdminClient(server);
    await client.get("/admin/login");
    const missing = await client.request("POST", "/admin/login", { form: { email: "ejer@nordlys.dk", password: PASSWORD } });
    expect(missing.status).toBe(403);
    expect(cookieOf(missing, "shop_admin")).toBeUndefined();

    const other = new AdminClient(server);
    const foreignToken = csrfOf((await other.get("/admin/login")).html);
    const foreign = await client.request("POST", "/admin/login", { form: { _csrf: foreignToken, email: "ejer@nordlys.dk", password: PASSWORD } });
    expect(foreign.status).toBe(403);
    expect(cookieOf(foreign, "shop_admin")).toBeUndefined();
    expect(await server.prisma.staffSession.count()).toBe(sessions);
  });

  it("refuses a signed-in post without the session's token, or with another session's token, and changes nothing", async () => {
    const first = await signedInClient(server, "csrf-a@nordlys.dk");
    const second = await signedInClient(server, "csrf-b@nordlys.dk");
    const secondToken = csrfOf((await second.get("/admin")).html);

    const noToken = await first.request("POST", "/admin/logout", { form: {} });
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain("Formularen er udløbet. Genindlæs siden, og prøv igen.");
    const wrongToken = await first.request("POST", "/admin/logout", { form: { _csrf: secondToken } });
    expect(wrongToken.status).toBe(403);
    const script = await first.request("POST", "/admin/logout", { headers: { accept: "application/json", "x-csrf-token": "forged" } });
    expect(script.status).toBe(403);
    // A cross-site post is refused before the token is even looked at.
    const crossSite = await first.request("POST", "/admin/logout", { form: { _csrf: csrfOf((await first.get("/admin")).html) }, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect((await first.get("/admin")).status).toBe(200);
  });
});

describe("signing out", () => {
  it("revokes the session on the server, so the old cookie opens nothing even when replayed", async () => {
    const client = await signedInClient(server, "logout@nordlys.dk");
    const token = client.cookies.get("shop_admin")!;
    const page = await client.submit("/admin", "/admin/logout", {});
    expect(page.status).toBe(303);
    expect(page.location).toBe("/admin/login");
    expect(cookieOf(page, "shop_admin")).toMatch(/^shop_admin=; .*Max-Age=0/);
    expect(client.cookies.has("shop_admin")).toBe(false);
    const login = await client.get("/admin/login");
    expect(login.html).toContain("Du er logget ud.");

    const row = await server.prisma.staffSession.findUniqueOrThrow({ where: { tokenHash: hashToken(token) } });
    expect(row.revokedAt).not.toBeNull();
    const replay = await fetch(`${server.url}/admin`, { headers: { cookie: `shop_admin=${token}`, accept: "text/html" }, redirect: "manual" });
    expect(replay.status).toBe(303);
    expect(await server.runtime.auth.staff!(`shop_admin=${token}`)).toBeUndefined();
  });

  it("signing in again after the session ended replaces it; a stale sign-in form of a live session is refused", async () => {
    await staffUser(server, "again@nordlys.dk");
    const client = new AdminClient(server);
    const staleForm = { _csrf: csrfOf((await client.get("/admin/login")).html), email: "again@nordlys.dk", password: PASSWORD };
    expect((await client.request("POST", "/admin/login", { form: staleForm })).status).toBe(303);
    // The form was bound to the browser before sign-in; the signed-in browser's forms are bound to its session.
    expect((await client.request("POST", "/admin/login", { form: staleForm })).status).toBe(403);
    const first = client.cookies.get("shop_admin")!;
    const signedIn = (await server.runtime.staff.signedIn(client.cookieHeader()))!;
    await server.runtime.staff.signOut(signedIn.sessionId);

    const page = await client.get("/admin/login");
    expect(page.status).toBe(200);
    expect((await client.request("POST", "/admin/login", { form: { ...staleForm, _csrf: csrfOf(page.html) } })).status).toBe(303);
    expect(client.cookies.get("shop_admin")).not.toBe(first);
    expect(await server.runtime.auth.staff!(`shop_admin=${first}`)).toBeUndefined();
    expect(await server.runtime.auth.staff!(client.cookieHeader())).toMatchObject({ kind: "staff" });
  });
});

describe("the staff identity", () => {
  it("resolves the cookie to a staff caller with the user's scopes, which the executor enforces", async () => {
    const clerk = await signedInClient(server, "lager@nordlys.dk", ["orders:read", "catalog:read"]);
    const caller = await server.runtime.auth.staff!(clerk.cookieHeader());
    const row = await server.prisma.adminUser.findUniqueOrThrow({ where: { email: "lager@nordlys.dk" } });
    expect(caller).toMatchObject({ kind: "staff", actor: `staff:${row.id}`, staffId: row.id });
    expect([...caller!.scopes].sort()).toEqual(["catalog:read", "orders:read"]);

    const orders = await server.runtime.executor.invoke({ name: "orders.list", input: { limit: 1 }, caller: caller!, door: "admin" });
    expect(Array.isArray(orders)).toBe(true);
    await expect(
      server.runtime.executor.invoke({ name: "products.delete", input: { slug: "whatever", confirm: true }, caller: caller!, door: "admin" }),
    ).rejects.toMatchObject({ status: 403, code: "forbidden" });

    // The navigation shows the sections this user cannot read as disabled, not as links.
    const home = await clerk.get("/admin");
    expect(home.html).toContain('<a href="/admin/orders"');
    expect(home.html).not.toContain('<a href="/admin/audit"');
    expect(home.html).toMatch(/<span class="nav-disabled"[^>]*>Ændringslog<\/span>/);
  });

  it("takes scope changes into account at once", async () => {
    const client = await signedInClient(server, "skift@nordlys.dk", ["orders:read"]);
    await server.prisma.adminUser.update({ where: { email: "skift@nordlys.dk" }, data: { scopes: ["audit:read"] } });
    const caller = await server.runtime.auth.staff!(client.cookieHeader());
    expect([...caller!.scopes]).toEqual(["audit:read"]);
  });

  it("is not accepted by the REST door, which stays Bearer-only for staff", async () => {
    const client = await signedInClient(server, "rest@nordlys.dk");
    const response = await server.call("orders.list", {}, { cookie: client.cookieHeader() });
    expectProblem(response, 401, "unauthorized");
    const header = await server.call("orders.list", {}, { cookie: client.cookieHeader(), headers: { "x-csrf-token": csrfOf((await client.get("/admin")).html) } });
    expectProblem(header, 401, "unauthorized");
  });

  it("ignores forged and malformed cookies", async () => {
    for (const cookie of ["shop_admin=forged", `shop_admin=${"a".repeat(43)}`, "shop_admin=%E0%A4%A", "shop_admin="]) {
      expect(await server.runtime.auth.staff!(cookie)).toBeUndefined();
      const page = await fetch(`${server.url}/admin`, { headers: { cookie, accept: "text/html" }, redirect: "manual" });
      expect(page.status).toBe(303);
    }
  });
});
