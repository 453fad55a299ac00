// /gavekort with plain HTTP and no JavaScript: a form for the code, the balance and expiry after posting it (the code
// itself never echoed, only its last four symbols), a Danish answer for an unknown code, and a link in the footer.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/server.ts";

const { server } = useServer();
const DEMO_CODE = "KXRT-7M2Q-PB4N-Z8WA";

/** A browser without scripts: GET the page, then POST the form with the cookie and CSRF token it carried. */
async function check(code: string): Promise<{ status: number; html: string }> {
  const page = await fetch(`${server.url}/gavekort`);
  expect(page.status).toBe(200);
  const form = await page.text();
  const cookie = page.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form)?.[1] ?? "";
  const posted = await fetch(`${server.url}/gavekort`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ _csrf: csrf, code }).toString(),
    redirect: "manual",
  });
  return { status: posted.status, html: await posted.text() };
}

describe("the gift-card balance page", () => {
  it("shows a form that needs no script, linked from the footer", async () => {
    const html = await (await fetch(`${server.url}/gavekort`)).text();
    expect(html).toContain('<form class="card gift-card-check" action="/gavekort" method="post">');
    expect(html).toContain('<label for="f-code">Gavekortets kode</label>');
    expect(html).toContain('<a href="/gavekort">Saldo på gavekort</a>');
  });

  it("answers the balance and expiry of a code typed in any case with spaces, without echoing the code", async () => {
    const card = await server.runtime.database.prisma.giftCard.findUniqueOrThrow({ where: { code: DEMO_CODE } });
    const { status, html } = await check(` ${DEMO_CODE.toLowerCase().replace(/-/g, " ")} `);
    expect(status).toBe(200);
    const kroner = new Intl.NumberFormat("da-DK", { minimumFractionDigits: 2 }).format(Number(card.balanceDkk) / 100);
    expect(html).toContain(`Saldo: <strong>${kroner} kr.</strong>`);
    expect(html).toMatch(/Gyldigt til og med \d+\. \w+ \d{4}\.|Udløb/);
    expect(html).toContain("Kort, der slutter på Z8WA");
    expect(html).not.toContain(DEMO_CODE);
  });

  it("says in Danish that it does not know a wrong code", async () => {
    const { status, html } = await check("AAAA-BBBB-CCCC-DDDD");
    expect(status).toBe(400);
    expect(html).toContain("Vi kender ikke den kode. Tjek, at du har skrevet den rigtigt.");
    expect((await check("x")).html).toContain("Vi kender ikke den kode.");
  });
});
