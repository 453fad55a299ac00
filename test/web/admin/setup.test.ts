// First run: a shop without staff users who can sign in prints a one-time setup link (the demo shop's invited trainee,
// who has no password yet, does not count); it creates the first staff user once, then dies.
import { describe, expect, it } from "vitest";
import { SETUP_TTL_MS } from "../../../src/tools/staff/setup.ts";
import { setupAnnouncement } from "../../../src/web/admin/pages/setup.ts";
import { AdminClient, csrfOf } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

let clock = Date.parse("2026-11-23T09:00:00Z");
const { server } = useServer({ start: { now: () => new Date(clock) } });

async function setupLink(): Promise<string> {
  const announcement = await setupAnnouncement(server.runtime);
  const match = /^(https?:\/\/\S+\/admin\/setup\?token=([\w-]+))$/.exec(announcement?.url ?? "");
  if (!match) throw new Error(`no setup link in ${JSON.stringify(announcement)}`);
  expect(announcement!.message).toContain(announcement!.url);
  expect(match[1]!.startsWith(server.runtime.config.publicBaseUrl)).toBe(true);
  return `/admin/setup?token=${match[2]}`;
}

/** Staff users who can sign in (have a password). */
const signable = () => server.prisma.adminUser.findMany({ where: { passwordHash: { not: null } } });

async function submit(client: AdminClient, path: string, form: Record<string, string>) {
  const page = await client.get(path);
  expect(page.status).toBe(200);
  const token = new URL(path, server.url).searchParams.get("token")!;
  return client.request("POST", "/admin/setup", { form: { _csrf: csrfOf(page.html), token, ...form } });
}

describe("first run", () => {
  it("refuses unknown and expired links", async () => {
    expect((await new AdminClient(server).get("/admin/setup?token=made-up")).status).toBe(410);
    expect((await new AdminClient(server).get("/admin/setup")).status).toBe(410);
    const expired = await setupLink();
    clock += SETUP_TTL_MS;
    const page = await new AdminClient(server).get(expired);
    expect(page.status).toBe(410);
    expect(page.html).toContain("npx shop admin create");
  });

  it("keeps the link usable while the form is filled in wrongly, and refuses a post without the form's CSRF token", async () => {
    const path = await setupLink();
    const client = new AdminClient(server);
    const mismatch = await submit(client, path, { email: "ejer@nordlys.dk", password: "lang nok kode", password2: "en anden kode" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain("De to adgangskoder er forskellige.");
    const short = await submit(client, path, { email: "ejer@nordlys.dk", password: "kort", password2: "kort" });
    expect(short.status).toBe(400);
    expect(short.html).toContain("mindst 10 tegn");
    const badEmail = await submit(client, path, { email: "ejer", password: "lang nok kode", password2: "lang nok kode" });
    expect(badEmail.status).toBe(400);
    const token = new URL(path, server.url).searchParams.get("token")!;
    const forged = await new AdminClient(server).request("POST", "/admin/setup", {
      form: { token, email: "evil@example.dk", password: "lang nok kode", password2: "lang nok kode" },
    });
    expect(forged.status).toBe(403);
    expect(await signable()).toEqual([]);
    expect((await client.get(path)).status).toBe(200);
  });

  it("creates the first staff user with every scope, signs them in, and kills every setup link", async () => {
    const other = await setupLink();
    const path = await setupLink();
    const client = new AdminClient(server);
    const form = {
      _csrf: csrfOf((await client.get(path)).html),
      token: new URL(path, server.url).searchParams.get("token")!,
      email: "Ejer@Nordlys.dk",
      password: "kaffe og kage",
      password2: "kaffe og kage",
    };
    const page = await client.request("POST", "/admin/setup", { form });
    expect(page.status).toBe(303);
    expect(page.location).toBe("/admin");
    const home = await client.get("/admin");
    expect(home.status).toBe(200);
    expect(home.html).toContain("ejer@nordlys.dk");
    expect((await signable()).map((row) => [row.email, row.scopes])).toEqual([["ejer@nordlys.dk", ["*"]]]);

    expect((await new AdminClient(server).get(path)).status).toBe(410);
    expect((await new AdminClient(server).get(other)).status).toBe(410);
    // Replaying the filled-in form creates nobody: in the signed-in browser its token is stale; from another
    // browser (a valid form token of its own) the link is spent.
    expect((await client.request("POST", "/admin/setup", { form: { ...form, email: "second@nordlys.dk" } })).status).toBe(403);
    const stranger = new AdminClient(server);
    const replay = await stranger.request("POST", "/admin/setup", { form: { ...form, _csrf: csrfOf((await stranger.get("/admin/login")).html), email: "second@nordlys.dk" } });
    expect(replay.status).toBe(410);
    expect(await signable()).toHaveLength(1);
    expect(await setupAnnouncement(server.runtime)).toBeNull();
    // And the new user signs in with the password chosen.
    expect((await new AdminClient(server).signIn("ejer@nordlys.dk", "kaffe og kage")).status).toBe(303);
  });

  it("lets only one of two links used at the same moment create a first user", async () => {
    await server.prisma.staffSession.deleteMany();
    await server.prisma.adminUser.deleteMany();
    const [a, b] = [await setupLink(), await setupLink()];
    const [clientA, clientB] = [new AdminClient(server), new AdminClient(server)];
    const [pageA, pageB] = await Promise.all([
      submit(clientA, a, { email: "a@nordlys.dk", password: "kaffe og kage", password2: "kaffe og kage" }),
      submit(clientB, b, { email: "b@nordlys.dk", password: "kaffe og kage", password2: "kaffe og kage" }),
    ]);
    expect([pageA.status, pageB.status].sort()).toEqual([303, 410]);
    expect(await server.prisma.adminUser.count()).toBe(1);
  });
});
