// /admin/password?token=… (choose a password with an e-mailed invitation or reset link) and /admin/password/forgot
// ("Glemt adgangskode?"): open pages before sign-in, acting anonymously through staff.set_password and
// staff.request_password_reset. The link's token is not checked before the form is sent: the answer to the form says
// whether it works, so a GET never touches it (mail scanners open links) and no extra tool is needed to peek.
import { RateLimited, toToolError } from "../../../core/errors.ts";
import requestReset from "../../../tools/staff/request_password_reset.ts";
import setPassword from "../../../tools/staff/set_password.ts";
import { MIN_PASSWORD_LENGTH, passwordToken } from "../../../tools/staff/schemas.ts";
import { field as input } from "../../components.ts";
import { html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import type { AdminRequest } from "../site.ts";

/** The token stays out of Referer headers and caches. */
const PRIVATE = { "Referrer-Policy": "no-referrer" };

function passwordView(web: AdminRequest, status: number, token: string, error?: string): View {
  web.bindSignedOutForm();
  return {
    status,
    title: "Vælg adgangskode",
    headers: PRIVATE,
    main: html`<section class="card auth-card">
<h1>Vælg adgangskode</h1>
<p>Du logger derefter ind med din e-mail og den nye adgangskode.</p>
${error ? html`<div class="notice notice-error" role="alert">${error}</div>` : ""}
<form method="post" action="/admin/password">
${web.csrfField()}
<input type="hidden" name="token" value="${token}">
${input({ name: "password", label: "Ny adgangskode", type: "password", required: true, autocomplete: "new-password", maxlength: 200, hint: `Mindst ${MIN_PASSWORD_LENGTH} tegn.` })}
${input({ name: "password2", label: "Gentag adgangskoden", type: "password", required: true, autocomplete: "new-password", maxlength: 200 })}
<button type="submit" class="button button-block">Gem adgangskoden</button>
</form>
</section>`,
  };
}

function deadLink(status: number): View {
  return {
    status,
    title: "Linket virker ikke",
    headers: PRIVATE,
    main: html`<section class="card auth-card">
<h1>Linket virker ikke</h1>
<p>Det er brugt, udløbet eller ikke kopieret helt. Et link til en ny adgangskode virker i 1 time, en invitation i 7 dage, og hvert link kun én gang.</p>
<p><a class="button" href="/admin/password/forgot">Få et nyt link</a></p>
<p><a href="/admin/login">Til log ind</a></p>
</section>`,
  };
}

export async function passwordPage(web: AdminRequest): Promise<Outcome> {
  const token = web.query("token");
  return passwordToken.safeParse(token).success ? passwordView(web, 200, token) : deadLink(410);
}

export async function setPasswordAction(web: AdminRequest): Promise<Outcome> {
  const token = web.field("token");
  const password = web.field("password");
  if (!passwordToken.safeParse(token).success) return deadLink(410);
  if (password.length < MIN_PASSWORD_LENGTH) return passwordView(web, 400, token, `Adgangskoden skal have mindst ${MIN_PASSWORD_LENGTH} tegn.`);
  if (password.length > 200) return passwordView(web, 400, token, "Adgangskoden må højst have 200 tegn.");
  if (password !== web.field("password2")) return passwordView(web, 400, token, "De to adgangskoder er forskellige.");
  try {
    const { email } = await web.callAnonymously(setPassword, { token, password });
    web.deps.log.info("staff password chosen by link", { email });
    return web.done("/admin/login", `Din adgangskode er gemt. Log ind som ${email}.`);
  } catch (error) {
    if (toToolError(error).code === "invalid_token") return deadLink(422);
    throw error;
  }
}

function forgotView(web: AdminRequest, status: number, email = "", error?: string): View {
  web.bindSignedOutForm();
  return {
    status,
    title: "Glemt adgangskode",
    main: html`<section class="card auth-card">
<h1>Glemt adgangskode?</h1>
<p>Skriv din e-mail, så sender vi et link, hvor du vælger en ny adgangskode. Linket virker i 1 time.</p>
${error ? html`<div class="notice notice-error" role="alert">${error}</div>` : ""}
<form method="post" action="/admin/password/forgot">
${web.csrfField()}
${input({ name: "email", label: "E-mail", type: "email", value: email, required: true, autocomplete: "username", maxlength: 254 })}
<button type="submit" class="button button-block">Send link</button>
</form>
<p class="hint"><a href="/admin/login">Tilbage til log ind</a></p>
</section>`,
  };
}

export async function forgotPage(web: AdminRequest): Promise<Outcome> {
  return forgotView(web, 200);
}

export async function requestResetAction(web: AdminRequest): Promise<Outcome> {
  const email = web.field("email").trim().slice(0, 254);
  if (!requestReset.input.safeParse({ email }).success) return forgotView(web, 400, email, "Skriv en gyldig e-mailadresse.");
  try {
    const answer = await web.callAnonymously(requestReset, { email });
    // The same words whether or not the address has a user.
    return web.done("/admin/login", `Hvis ${answer.email} har en bruger, har vi sendt et link til en ny adgangskode. Det virker i 1 time.`);
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    const minutes = Math.ceil(error.retryAfterSeconds / 60);
    web.res.set("Retry-After", String(error.retryAfterSeconds));
    return forgotView(web, 429, email, `Der er bedt om for mange links. Prøv igen om ${minutes} ${minutes === 1 ? "minut" : "minutter"}.`);
  }
}
