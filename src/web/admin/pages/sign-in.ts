// GET/POST /admin/login and POST /admin/logout: sign-in with throttling and one generic error; sign-out revokes the
// session on the server.
import { RateLimited } from "../../../core/errors.ts";
import { WrongCredentials } from "../../../tools/staff/sign-in.ts";
import { field as input } from "../../components.ts";
import { html } from "../../html.ts";
import type { Outcome, View } from "../../page.ts";
import type { AdminRequest } from "../site.ts";

/** Only local admin paths are followed after sign-in, never another host. */
function safeNext(next: string): string {
  return /^\/admin(?:[/?#][^\\\s]*)?$/.test(next) && !next.startsWith("//") ? next : "/admin";
}

function loginView(web: AdminRequest, status: number, form: { next: string; email?: string; error?: string }): View {
  web.bindSignedOutForm();
  return {
    status,
    title: "Log ind",
    main: html`<section class="card auth-card">
<h1>Log ind</h1>
${form.next.startsWith("/admin/oauth/") ? html`<p class="notice notice-info" role="status">En app beder om adgang til butikken. Log ind, så kan du se, hvad den beder om, før du svarer.</p>` : ""}
${form.error ? html`<div class="notice notice-error" role="alert">${form.error}</div>` : ""}
<form method="post" action="/admin/login">
${web.csrfField()}
<input type="hidden" name="next" value="${form.next}">
${input({ name: "email", label: "E-mail", type: "email", value: form.email ?? "", required: true, autocomplete: "username", maxlength: 254 })}
${input({ name: "password", label: "Adgangskode", type: "password", required: true, autocomplete: "current-password", maxlength: 200 })}
<button type="submit" class="button button-block">Log ind</button>
</form>
<p class="auth-links"><a href="/admin/password/forgot">Glemt adgangskode?</a></p>
<p class="hint">Ingen bruger endnu? Opret en med <code>npx shop admin create</code>, eller brug det engangslink, serveren viser ved første start.</p>
</section>`,
  };
}

export async function loginPage(web: AdminRequest): Promise<Outcome> {
  const next = safeNext(web.query("next"));
  if (await web.deps.staff.signedIn(web.req.headers.cookie)) return { redirect: next };
  return loginView(web, 200, { next });
}

export async function signIn(web: AdminRequest): Promise<Outcome> {
  const next = safeNext(web.field("next"));
  const email = web.field("email").trim().slice(0, 254);
  const { staff, log } = web.deps;
  try {
    const previous = await staff.signedIn(web.req.headers.cookie);
    const address = web.req.ip ?? "unknown";
    const signedIn = await staff.signIn({ email, password: web.field("password").slice(0, 1000), address, userAgent: web.req.get("user-agent") });
    if (previous) await staff.signOut(previous.sessionId, previous.caller);
    log.info("staff signed in", { staffId: signedIn.staff.id, address });
    web.res.append("Set-Cookie", signedIn.setCookie);
    return { redirect: next };
  } catch (error) {
    if (error instanceof WrongCredentials) {
      log.warn("staff sign-in failed", { address: web.req.ip });
      return loginView(web, 401, { next, email, error: "E-mail eller adgangskode er forkert." });
    }
    if (error instanceof RateLimited) {
      const minutes = Math.ceil(error.retryAfterSeconds / 60);
      web.res.set("Retry-After", String(error.retryAfterSeconds));
      return loginView(web, 429, { next, email, error: `For mange forsøg. Prøv igen om ${minutes} ${minutes === 1 ? "minut" : "minutter"}.` });
    }
    throw error;
  }
}

export async function signOut(web: AdminRequest): Promise<Outcome> {
  await web.deps.staff.signOut(web.staff.sessionId, web.staff.caller);
  web.res.append("Set-Cookie", web.deps.staff.clearedSessionCookie());
  return web.done("/admin/login", "Du er logget ud.");
}
