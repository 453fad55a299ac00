// First run: the form behind the one-time setup link that creates the first staff user, and the dead-link notice.
import { escapeHtml } from "../../html.ts";
import { MIN_PASSWORD_LENGTH } from "../../../core/staff/users.ts";

export interface SetupView {
  csrf: string;
  token: string;
  email?: string;
  error?: string;
}

export function setupHtml(view: SetupView): string {
  return `<section class="card narrow">
<h1>Welcome to your shop</h1>
<p>Create the first staff user. It can do everything; you can add more staff later with <code>npx shop admin create</code>.</p>
${view.error ? `<p class="form-error" role="alert">${escapeHtml(view.error)}</p>` : ""}
<form method="post" action="/admin/setup" class="stack">
<input type="hidden" name="_csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<label>E-mail <input type="email" name="email" autocomplete="username" required maxlength="254" value="${escapeHtml(view.email ?? "")}"></label>
<label>Password <small>(at least ${MIN_PASSWORD_LENGTH} characters)</small>
<input type="password" name="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="200"></label>
<label>Repeat the password <input type="password" name="password2" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="200"></label>
<button type="submit" class="primary">Create staff user and sign in</button>
</form>
</section>`;
}

export function setupGoneHtml(): string {
  return `<section class="card narrow">
<h1>This setup link cannot be used</h1>
<p>It was used already, it has expired, or the shop already has a staff user.</p>
<p>Restart the server for a fresh link while the shop has no staff user, or create one with
<code>npx shop admin create --email you@example.dk --password '…'</code>.</p>
<p><a href="/admin/login">Go to sign-in</a></p>
</section>`;
}
