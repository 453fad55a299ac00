// First run: the console link /admin/setup?token=… and the form behind it that creates the first staff user.
import { problemText } from "../problems.ts";
import { Invalid } from "../../../core/errors.ts";
import type { WebDeps } from "../../deps.ts";
import { MIN_PASSWORD_LENGTH } from "../../../tools/staff/schemas.ts";
import { SetupLinkInvalid, SETUP_TTL_MS } from "../../../tools/staff/setup.ts";
import { field as input } from "../../components.ts";
import { html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import type { AdminRequest } from "../site.ts";

/** What to print at start while the shop has no staff user (the link as a field of its own, to copy); null once it has one. */
export async function setupAnnouncement(deps: Pick<WebDeps, "staff" | "config">): Promise<{ message: string; url: string } | null> {
  const token = await deps.staff.issueSetupToken();
  if (!token) return null;
  const url = `${deps.config.publicBaseUrl}/admin/setup?token=${token}`;
  return { message: `No staff user yet. Create the first one in your browser (this link works once, for ${SETUP_TTL_MS / 60_000} minutes): ${url}`, url };
}

function setupView(web: AdminRequest, status: number, form: { token: string; email?: string; error?: string }): View {
  web.bindSignedOutForm();
  return {
    status,
    title: "Opret den første bruger",
    main: html`<section class="card auth-card">
<h1>Velkommen til din butik</h1>
<p>Opret den første medarbejder. Den får adgang til alt; flere kan inviteres bagefter under Medarbejdere.</p>
${form.error ? html`<div class="notice notice-error" role="alert">${form.error}</div>` : ""}
<form method="post" action="/admin/setup">
${web.csrfField()}
<input type="hidden" name="token" value="${form.token}">
${input({ name: "email", label: "E-mail", type: "email", value: form.email ?? "", required: true, autocomplete: "username", maxlength: 254 })}
${input({ name: "password", label: "Adgangskode", type: "password", required: true, autocomplete: "new-password", maxlength: 200, hint: `Mindst ${MIN_PASSWORD_LENGTH} tegn.` })}
${input({ name: "password2", label: "Gentag adgangskoden", type: "password", required: true, autocomplete: "new-password", maxlength: 200 })}
<button type="submit" class="button button-block">Opret og log ind</button>
</form>
</section>`,
  };
}

function gone(): View {
  return {
    status: 410,
    title: "Linket virker ikke",
    main: html`<section class="card auth-card">
<h1>Dette opsætningslink virker ikke</h1>
<p>Det er brugt, udløbet, eller butikken har allerede en medarbejder.</p>
<p>Genstart serveren for at få et nyt link, så længe der ingen medarbejder er, eller opret en med
<code>npx shop admin create --email dig@example.dk --password '…'</code>.</p>
<p><a class="button" href="/admin/login">Til log ind</a></p>
</section>`,
  };
}

export async function setupPage(web: AdminRequest): Promise<Outcome> {
  const token = web.query("token");
  if (!(await web.deps.staff.setupTokenUsable(token))) return gone();
  return setupView(web, 200, { token });
}

export async function setupFirstStaff(web: AdminRequest): Promise<Outcome> {
  const token = web.field("token");
  const email = web.field("email").trim().slice(0, 254);
  const password = web.field("password");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return setupView(web, 400, { token, email, error: "Skriv en gyldig e-mailadresse." });
  if (password.length < MIN_PASSWORD_LENGTH) return setupView(web, 400, { token, email, error: `Adgangskoden skal have mindst ${MIN_PASSWORD_LENGTH} tegn.` });
  if (password !== web.field("password2")) return setupView(web, 400, { token, email, error: "De to adgangskoder er forskellige." });
  try {
    const { staff, setCookie } = await web.deps.staff.setUp(token, { email, password }, { address: web.req.ip, userAgent: web.req.get("user-agent") });
    web.res.append("Set-Cookie", setCookie);
    web.deps.log.info("first staff user created", { staffId: staff.id });
    return web.done("/admin", `Velkommen, ${staff.email}. Din bruger er oprettet.`);
  } catch (error) {
    if (error instanceof SetupLinkInvalid) return gone();
    if (error instanceof Invalid) return setupView(web, 400, { token, email, error: problemText(error) });
    throw error;
  }
}
