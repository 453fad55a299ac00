// The sign-in form (e-mail and password), with the one generic error a failed attempt gets.
import { escapeHtml } from "../../html.ts";

export interface LoginView {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
}

export function loginHtml(view: LoginView): string {
  return `<section class="card narrow">
<h1>Sign in</h1>
${view.error ? `<p class="form-error" role="alert">${escapeHtml(view.error)}</p>` : ""}
<form method="post" action="/admin/login" class="stack">
<input type="hidden" name="_csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="next" value="${escapeHtml(view.next)}">
<label>E-mail <input type="email" name="email" autocomplete="username" required maxlength="254" value="${escapeHtml(view.email ?? "")}"${view.email ? "" : " autofocus"}></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required maxlength="200"${view.email ? " autofocus" : ""}></label>
<button type="submit" class="primary">Sign in</button>
</form>
<p class="hint">No account yet? A staff user is created with <code>npx shop admin create</code>, or with the setup link the server prints on its first start.</p>
</section>`;
}
