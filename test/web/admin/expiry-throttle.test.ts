// Staff sessions against an injected clock: idle and absolute expiry, sign-in throttling per account and per address,
// and the Secure cookie behind https.
import { beforeAll, describe, expect, it } from "vitest";
import { ABSOLUTE_MS, IDLE_MS } from "../../../src/tools/staff/sessions.ts";
import { DEFAULT_THROTTLE } from "../../../src/tools/staff/throttle.ts";
import { AdminClient, PASSWORD, staffUser } from "../../support/admin.ts";
import { useServer } from "../../support/server.ts";

const MINUTE = 60_000;
let clock = Date.parse("2026-11-23T09:00:00Z");
const { server } = useServer({ config: { publicBaseUrl: "https://shop.example" }, start: { now: () => new Date(clock) } });

beforeAll(async () => {
  await staffUser(server, "ejer@nordlys.dk");
});

async function isSignedIn(client: AdminClient): Promise<boolean> {
  const page = await client.get("/admin");
  if (page.status === 303) {
    expect(page.location).toBe("/admin/login?next=%2Fadmin");
    return false;
  }
  expect(page.status).toBe(200);
  return true;
}

async function signIn(email: string, address: string, password = PASSWORD) {
  const client = new AdminClient(server, address);
  const page = await client.signIn(email, password);
  return { client, page };
}

describe("behind https", () => {
  it("marks the session cookie Secure", async () => {
    const { page } = await signIn("ejer@nordlys.dk", "10.0.0.1");
    expect(page.status).toBe(303);
    expect(page.headers.getSetCookie().find((line) => line.startsWith("shop_admin="))).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
  });
});

describe("session expiry", () => {
  it("ends a session after the idle limit without requests, and each request moves the limit", async () => {
    const { client } = await signIn("ejer@nordlys.dk", "10.0.0.2");
    clock += IDLE_MS - MINUTE;
    expect(await isSignedIn(client)).toBe(true);
    clock += IDLE_MS - MINUTE;
    expect(await isSignedIn(client)).toBe(true);
    clock += IDLE_MS;
    expect(await isSignedIn(client)).toBe(false);
    expect(await server.runtime.auth.staff!(client.cookieHeader())).toBeUndefined();
  });

  it("ends a session at the absolute limit however active it is", async () => {
    const { client } = await signIn("ejer@nordlys.dk", "10.0.0.3");
    const start = clock;
    while (clock + 50 * MINUTE < start + ABSOLUTE_MS) {
      clock += 50 * MINUTE;
      expect(await isSignedIn(client)).toBe(true);
    }
    clock = start + ABSOLUTE_MS - 1_000;
    expect(await isSignedIn(client)).toBe(true);
    clock = start + ABSOLUTE_MS;
    expect(await isSignedIn(client)).toBe(false);
  });
});

describe("sign-in throttling", () => {
  it("locks an account after repeated failures from any address, for everyone, until the window passes", async () => {
    await staffUser(server, "laast@nordlys.dk");
    for (let attempt = 1; attempt <= DEFAULT_THROTTLE.perAccount; attempt++) {
      const { page } = await signIn("laast@nordlys.dk", `10.1.0.${attempt}`, "wrong password");
      expect(page.status, `attempt ${attempt}`).toBe(401);
    }
    // Now even the right password from a fresh address is refused, and the answer does not say whether it was right.
    const { page: locked } = await signIn("laast@nordlys.dk", "10.1.1.1");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(DEFAULT_THROTTLE.windowMs / 1000);
    expect(locked.html).toMatch(/For mange forsøg\. Prøv igen om \d+ minut(ter)?\./);
    expect(locked.headers.getSetCookie().some((line) => line.startsWith("shop_admin="))).toBe(false);
    // An unknown account is throttled the same way, so the lock tells nothing about which accounts exist.
    for (let attempt = 1; attempt <= DEFAULT_THROTTLE.perAccount; attempt++) await signIn("ghost@nordlys.dk", `10.2.0.${attempt}`, "guess");
    expect((await signIn("ghost@nordlys.dk", "10.2.1.1", "guess")).page.status).toBe(429);
    // Other accounts are not affected.
    expect((await signIn("ejer@nordlys.dk", "10.1.1.1")).page.status).toBe(303);

    clock += DEFAULT_THROTTLE.windowMs;
    const { client, page } = await signIn("laast@nordlys.dk", "10.1.1.1");
    expect(page.status).toBe(303);
    expect(await isSignedIn(client)).toBe(true);
  });

  it("a successful sign-in clears the account's failures", async () => {
    await staffUser(server, "glemsom@nordlys.dk");
    for (let round = 0; round < 2; round++) {
      for (let attempt = 1; attempt < DEFAULT_THROTTLE.perAccount; attempt++) {
        expect((await signIn("glemsom@nordlys.dk", "10.3.0.1", "typo typo")).page.status).toBe(401);
      }
      expect((await signIn("glemsom@nordlys.dk", "10.3.0.2")).page.status).toBe(303);
    }
  });

  it("locks an address that tries many accounts, while other addresses still sign in", async () => {
    clock += DEFAULT_THROTTLE.windowMs;
    for (let attempt = 1; attempt <= DEFAULT_THROTTLE.perAddress; attempt++) {
      expect((await signIn(`gaet${attempt}@nordlys.dk`, "10.9.9.9", "password123")).page.status, `attempt ${attempt}`).toBe(401);
    }
    expect((await signIn("ejer@nordlys.dk", "10.9.9.9")).page.status).toBe(429);
    expect((await signIn("ejer@nordlys.dk", "10.9.9.10")).page.status).toBe(303);
    clock += DEFAULT_THROTTLE.windowMs;
    expect((await signIn("ejer@nordlys.dk", "10.9.9.9")).page.status).toBe(303);
  });

  it("counts parallel guesses before checking them, so a burst cannot exceed the limit", async () => {
    clock += DEFAULT_THROTTLE.windowMs;
    await staffUser(server, "burst@nordlys.dk");
    const pages = await Promise.all(
      Array.from({ length: DEFAULT_THROTTLE.perAccount + 5 }, (_, i) => signIn("burst@nordlys.dk", `10.4.0.${i}`, `guess ${i}`)),
    );
    const statuses = pages.map(({ page }) => page.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(DEFAULT_THROTTLE.perAccount);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });
});
