// The staff pages over real HTTP: "Medarbejdere" lists staff users with Danish scopes, invites one by e-mail (the
// link leads to /admin/password and a password that signs in), changes scopes, e-mails a reset link and deletes with a
// confirmation; what the signed-in user lacks is disabled and refused. "Glemt adgangskode?" answers alike for every
// e-mail, mails only staff users and is throttled.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../../prisma/seed/history.ts";
import { SCOPES } from "../../../src/tools/scopes.ts";
import { SCOPE_GROUPS, SCOPE_TEXT } from "../../../src/web/admin/scopes.ts";
import { AdminClient, csrfOf, signedInClient, staffUser } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";
import { captureMail } from "../../tools/orders/fixtures.ts";
import { linkTokenTo } from "../../tools/staff/fixtures.ts";

const { server } = useServer();
const prisma = () => server.prisma;
let owner: AdminClient;
beforeAll(async () => {
  owner = await signedInClient(server, "ejer@nordlys.dk");
});

type Page = Awaited<ReturnType<AdminClient["get"]>>;

/** The flash message shown after following a redirect. */
async function follow(client: AdminClient, page: Page): Promise<string> {
  expect(page.status, page.html.slice(0, 500)).toBe(303);
  const next = await client.get(page.location!);
  return /<div class="notice notice-(?:success|error)"[^>]*>([^<]*)<\/div>/.exec(next.html)?.[1] ?? "";
}

/** Posts a form with repeated fields (checkboxes) and the CSRF token of `formPage`. */
async function post(client: AdminClient, formPage: string, action: string, fields: Array<[string, string]>): Promise<Page> {
  const form = new URLSearchParams([["_csrf", csrfOf((await client.get(formPage)).html)], ...fields]);
  return client.request("POST", action, { form });
}

const idOf = async (email: string) => (await prisma().adminUser.findUniqueOrThrow({ where: { email } })).id;

describe("the staff page", () => {
  it("groups every grantable scope once, each with Danish words", () => {
    expect(SCOPE_GROUPS.flatMap((group) => group.scopes).sort()).toEqual([...SCOPES].sort());
    for (const scope of SCOPES) expect(SCOPE_TEXT[scope], scope).toBeTruthy();
  });

  it("lists the staff users with their scopes in Danish and last sign-in, and sits in the side bar", async () => {
    await staffUser(server, "lager@nordlys.dk", ["orders:read", "orders:write"]);
    const page = await owner.get("/admin/staff");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<a href="/admin/staff" aria-current="page">Medarbejdere</a>');
    expect(page.html).toContain(`<a href="/admin/staff/${DEMO.invitedStaff.id}">praktikant@nordlys.dk</a>`);
    expect(page.html).toContain('<li title="orders:write">Oprette og behandle ordrer: status, forsendelse, refusion</li>');
    expect(page.html).toContain('<li title="catalog:read">Sortiment, kategorier, varianter, politikker, adresser</li>');
    expect(page.html).toMatch(/ejer@nordlys\.dk<\/a> <span class="tag tag-info">dig<\/span><\/td>\s*<td><span class="tag tag-warn">Alle adgange<\/span>/);
    expect(page.html).toContain('<span class="hint">aldrig</span>');
    // The invitation's scopes come in groups, every one of them tickable for an owner.
    expect(page.html).toContain("<legend>Ordrer og kunder</legend>");
    expect(page.html).not.toMatch(/name="scopes" value="[^"]+" disabled/);
  });

  it("invites a user by e-mail; the link sets a password that signs in, once", async () => {
    const mail = captureMail(server);
    const sent = await post(owner, "/admin/staff", "/admin/staff", [["email", "Ny.Kollega@nordlys.dk"], ["scopes", "orders:read"], ["scopes", "support:read"]]);
    expect(await follow(owner, sent)).toBe("Invitationen er sendt til ny.kollega@nordlys.dk.");
    const row = await prisma().adminUser.findUniqueOrThrow({ where: { email: "ny.kollega@nordlys.dk" } });
    expect(row).toMatchObject({ scopes: ["orders:read", "support:read"], passwordHash: null });
    expect((await prisma().auditEntry.findFirstOrThrow({ where: { tool: "staff.create", subjectId: row.id } })).actor).toBe(`staff:${await idOf("ejer@nordlys.dk")}`);
    const token = await linkTokenTo(server, mail, "ny.kollega@nordlys.dk");

    const browser = new AdminClient(server);
    const form = await browser.get(`/admin/password?token=${token}`);
    expect(form.status).toBe(200);
    expect(form.headers.get("referrer-policy")).toBe("no-referrer");
    expect(form.html).toContain("<h1>Vælg adgangskode</h1>");
    const choose = (password: string, password2 = password) => browser.request("POST", "/admin/password", { form: { _csrf: csrfOf(form.html), token, password, password2 } });
    const mismatch = await choose("lang nok kode 1", "lang nok kode 2");
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain("De to adgangskoder er forskellige.");
    expect((await choose("kort")).html).toContain("mindst 10 tegn");
    const done = await choose("min helt egen kode");
    expect(done.location).toBe("/admin/login");
    expect(await follow(browser, done)).toBe("Din adgangskode er gemt. Log ind som ny.kollega@nordlys.dk.");
    expect((await browser.signIn("ny.kollega@nordlys.dk", "min helt egen kode")).status).toBe(303);

    const other = new AdminClient(server);
    const again = await other.get(`/admin/password?token=${token}`);
    const reused = await other.request("POST", "/admin/password", { form: { _csrf: csrfOf(again.html), token, password: "en anden kode her", password2: "en anden kode her" } });
    expect(reused.status).toBe(422);
    expect(reused.html).toContain("Linket virker ikke");
    expect(reused.html).toContain('href="/admin/password/forgot"');
  });

  it("refuses an invitation without scopes or to a taken e-mail, in Danish", async () => {
    expect(await follow(owner, await post(owner, "/admin/staff", "/admin/staff", [["email", "tom@nordlys.dk"]]))).toBe("Vælg mindst én adgang til medarbejderen.");
    expect(await follow(owner, await post(owner, "/admin/staff", "/admin/staff", [["email", "lager@nordlys.dk"], ["scopes", "orders:read"]]))).toBe("Der findes allerede en medarbejder med den e-mail.");
    expect(await follow(owner, await post(owner, "/admin/staff", "/admin/staff", [["email", "ikke en adresse"], ["scopes", "orders:read"]]))).toContain("E-mail: skal være en gyldig e-mailadresse.");
    expect(await prisma().adminUser.findUnique({ where: { email: "tom@nordlys.dk" } })).toBeNull();
  });

  it("changes a user's scopes, e-mails a reset link, and deletes only with the box ticked", async () => {
    const mail = captureMail(server);
    const id = await idOf("lager@nordlys.dk");
    const path = `/admin/staff/${id}`;
    const page = await owner.get(path);
    expect(page.html).toMatch(/name="scopes" value="orders:write" checked/);
    expect(page.html).toMatch(/name="scopes" value="catalog:read"(?! checked)/);

    expect(await follow(owner, await post(owner, path, `${path}/scopes`, [["scopes", "orders:read"], ["scopes", "catalog:read"]]))).toBe("Adgangene for lager@nordlys.dk er gemt.");
    expect((await prisma().adminUser.findUniqueOrThrow({ where: { id } })).scopes).toEqual(["orders:read", "catalog:read"]);

    expect(await follow(owner, await post(owner, path, `${path}/reset-link`, []))).toBe("Et link til en ny adgangskode er sendt til lager@nordlys.dk.");
    const token = await linkTokenTo(server, mail, "lager@nordlys.dk");
    expect(await prisma().staffPasswordToken.count({ where: { staffId: id, purpose: "reset", usedAt: null } })).toBe(1);
    expect(token).toMatch(/^[\w-]{43}$/);

    expect(page.html).toContain('data-confirm="Slet lager@nordlys.dk for altid?"');
    expect(await follow(owner, await post(owner, path, `${path}/delete`, []))).toBe("Sæt flueben for at bekræfte sletningen.");
    expect(await prisma().adminUser.findUnique({ where: { id } })).not.toBeNull();
    const deleted = await post(owner, path, `${path}/delete`, [["confirm", "true"]]);
    expect(deleted.location).toBe("/admin/staff");
    expect(await follow(owner, deleted)).toBe("lager@nordlys.dk er slettet.");
    expect(await prisma().adminUser.findUnique({ where: { id } })).toBeNull();
    expect((await owner.get(path)).status).toBe(404);
  });

  it("offers no deletion of oneself, and refuses it in Danish", async () => {
    const path = `/admin/staff/${await idOf("ejer@nordlys.dk")}`;
    const page = await owner.get(path);
    expect(page.html).toContain("Du kan ikke slette din egen bruger");
    expect(page.html).not.toContain(`action="${path}/delete"`);
    expect(await follow(owner, await post(owner, path, `${path}/delete`, [["confirm", "true"]]))).toBe("Du kan ikke slette din egen bruger; det kan en anden medarbejder.");
  });

  it("lets a staff manager grant only scopes they hold; beyond them the form is disabled and the tools refuse (403)", async () => {
    const manager = await signedInClient(server, "leder@nordlys.dk", ["staff:read", "staff:write", "orders:read", "orders:write"]);
    const page = await manager.get("/admin/staff");
    expect(page.html).toMatch(/name="scopes" value="orders:read"(?! disabled)/);
    expect(page.html).toMatch(/name="scopes" value="settings:write" disabled/);
    expect(page.html).toMatch(/name="scopes" value="\*" disabled/);
    const before = await prisma().adminUser.count();
    expect((await post(manager, "/admin/staff", "/admin/staff", [["email", "for.meget@nordlys.dk"], ["scopes", "settings:write"]])).status).toBe(403);
    expect(await prisma().adminUser.count()).toBe(before);

    const ownerPage = await manager.get(`/admin/staff/${await idOf("ejer@nordlys.dk")}`);
    expect(ownerPage.html).toContain("har adgange, du ikke selv har");
    expect(ownerPage.html).not.toContain("Send nulstillingslink");
    expect(ownerPage.html).toMatch(/<button type="submit" class="button" disabled>Gem adgange<\/button>/);
    expect((await post(manager, "/admin/staff", `/admin/staff/${await idOf("ejer@nordlys.dk")}/reset-link`, [])).status).toBe(403);
  });

  it("shows a reader the users with every action disabled, and keeps the page from staff without staff:read", async () => {
    const reader = await signedInClient(server, "kigger@nordlys.dk", ["staff:read"]);
    const page = await reader.get("/admin/staff");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<button type="submit" class="button" disabled title="Kræver adgangen staff:write">Send invitation<\/button>/);
    expect((await post(reader, "/admin/staff", "/admin/staff", [["email", "x@nordlys.dk"], ["scopes", "staff:read"]])).status).toBe(403);
    // A user within the reader's own scopes: the actions are there, disabled for want of staff:write.
    const peer = await staffUser(server, "kollega@nordlys.dk", ["staff:read"]);
    const trainee = await reader.get(`/admin/staff/${peer.id}`);
    expect(trainee.html).toMatch(/<button type="submit" class="button" disabled title="Kræver adgangen staff:write">Gem adgange<\/button>/);
    expect(trainee.html).toMatch(/disabled title="Kræver adgangen staff:write">Send nulstillingslink<\/button>/);
    expect(trainee.html).toMatch(/<button type="submit" class="button button-danger" disabled title="Kræver adgangen staff:write">Slet medarbejder<\/button>/);

    const clerk = await signedInClient(server, "ekspedient@nordlys.dk", ["orders:read"]);
    expect((await clerk.get("/admin")).html).toContain('<span class="nav-disabled" title="Kræver adgangen staff:read">Medarbejdere</span>');
    expect((await clerk.get("/admin/staff")).status).toBe(403);
    expect((await clerk.get(`/admin/staff/${DEMO.invitedStaff.id}`)).status).toBe(403);
  });

  it("answers an unknown user with 404", async () => {
    expect((await owner.get("/admin/staff/no-such-user")).status).toBe(404);
    expect((await owner.get("/admin/staff/%3Cscript%3E")).status).toBe(404);
  });
});

describe("a forgotten password", () => {
  it("is a link on the sign-in page to a form that answers alike for every e-mail and mails only staff users", async () => {
    const mail = captureMail(server);
    await staffUser(server, "glemsom@nordlys.dk", ["orders:read"]);
    expect((await new AdminClient(server).get("/admin/login")).html).toContain('<a href="/admin/password/forgot">Glemt adgangskode?</a>');
    const ask = async (email: string) => {
      const client = new AdminClient(server, "198.51.100.40");
      return follow(client, await client.submit("/admin/password/forgot", "/admin/password/forgot", { email }));
    };
    expect(await ask("Glemsom@nordlys.dk")).toBe("Hvis glemsom@nordlys.dk har en bruger, har vi sendt et link til en ny adgangskode. Det virker i 1 time.");
    expect(await ask("ukendt@nordlys.dk")).toBe("Hvis ukendt@nordlys.dk har en bruger, har vi sendt et link til en ny adgangskode. Det virker i 1 time.");
    const token = await linkTokenTo(server, mail, "glemsom@nordlys.dk");
    await server.runtime.collaborators.background.idle();
    expect(mail.sent.map((m) => m.to)).toEqual(["glemsom@nordlys.dk"]);

    const browser = new AdminClient(server);
    const done = await browser.submit(`/admin/password?token=${token}`, "/admin/password", { token, password: "ny og bedre kode", password2: "ny og bedre kode" });
    expect(await follow(browser, done)).toBe("Din adgangskode er gemt. Log ind som glemsom@nordlys.dk.");
    expect((await browser.signIn("glemsom@nordlys.dk", "ny og bedre kode")).status).toBe(303);
  });

  it("tells a browser asking too often to wait, and refuses a bad e-mail or a post without the form's token", async () => {
    const client = new AdminClient(server, "198.51.100.41");
    for (let i = 0; i < 5; i++) expect((await client.submit("/admin/password/forgot", "/admin/password/forgot", { email: "travl@nordlys.dk" })).status).toBe(303);
    const limited = await client.submit("/admin/password/forgot", "/admin/password/forgot", { email: "travl@nordlys.dk" });
    expect(limited.status).toBe(429);
    expect(limited.html).toContain("Prøv igen om 60 minutter.");
    const bad = await client.submit("/admin/password/forgot", "/admin/password/forgot", { email: "ikke-en-adresse" });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Skriv en gyldig e-mailadresse.");
    expect((await new AdminClient(server).request("POST", "/admin/password/forgot", { form: { email: "glemsom@nordlys.dk" } })).status).toBe(403);
  });

  it("answers a link without a well-formed token with a page to get a new one", async () => {
    for (const path of ["/admin/password", "/admin/password?token=kort", `/admin/password?token=${"A".repeat(44)}`]) {
      const page = await new AdminClient(server).get(path);
      expect(page.status, path).toBe(410);
      expect(page.html).toContain("Få et nyt link");
    }
    const form = await new AdminClient(server).get(`/admin/password?token=${"A".repeat(43)}`);
    expect(form.status).toBe(200);
  });
});
