// /docs: the API reference. A short introduction (keys, scopes, errors, limits) above Swagger UI, which the page's
// own script (src/web/client/docs.ts) renders from /api/v1/openapi.json, the tools grouped by area.
import { html } from "../../html.ts";
import type { View, WebRequest } from "../../page.ts";

const OPENAPI_PATH = "/api/v1/openapi.json";

export function referencePage(web: WebRequest): Promise<View> {
  const perMinute = (count: number) => count.toLocaleString("en-US");
  const { rateLimitKeyPerMin, rateLimitAnonPerMin } = web.deps.config;
  return Promise.resolve({
    title: "API reference",
    description: "Every tool of the shop as an HTTP operation: inputs, outputs, scopes and errors, with Try it out.",
    scripts: ["docs.js"],
    main: html`<div class="docs-intro">
<h1>API reference</h1>
<p class="docs-lead">Every capability of the shop is a tool named <code>area.action</code>, called as
<code>POST /api/v1/tools/&lt;name&gt;</code> with a JSON object (<code>{}</code> for none). A success is
<code>200 {"ok": true, "result": …}</code>. The same tools, schemas and keys serve <a href="/docs/mcp">MCP</a>.</p>
<div class="docs-facts">
<section aria-labelledby="facts-keys">
<h2 id="facts-keys">Keys and scopes</h2>
<p><code>products.search</code>, <code>products.get</code> and <code>categories.list</code> need no key; a shopper's
cart and account tools run on the storefront's session cookie. Everything else needs an API key carrying the tool's
scope (shown on each tool as <code>x-service-required-scope</code>; <code>*</code> grants all).</p>
<p>Make a key in the admin under <a href="/admin/api-keys">API keys</a>, or with
<code>npx shop keys create --name "ERP sync" --scopes orders:read,orders:write</code>, and send it as
<code>Authorization: Bearer &lt;key&gt;</code>. Here: <strong>Authorize</strong>, paste the key, then
<strong>Try it out</strong> on a tool. The key stays in this tab.</p>
</section>
<section aria-labelledby="facts-errors">
<h2 id="facts-errors">Errors</h2>
<p>Failures are RFC 9457 problems, <code>application/problem+json</code>:
<code>{"ok": false, type, title, status, detail, code, errors?}</code>. 400 invalid input (<code>errors</code> names
each path), 401 no or invalid key, 403 missing scope, 404 unknown tool or subject, 409 conflict, 422 a shop rule
refuses (<code>code</code> names it), 429 rate limited, 5xx with a request id. Each tool lists the codes it can
refuse with under its responses (and as <code>errors</code> in <a href="/api/v1/tools">the catalogue</a>).</p>
</section>
<section aria-labelledby="facts-limits">
<h2 id="facts-limits">Limits and retries</h2>
<p>${perMinute(rateLimitKeyPerMin)} requests a minute per key, ${perMinute(rateLimitAnonPerMin)} per client address without one. Every
answer carries <code>RateLimit-Policy</code>, <code>RateLimit</code>, <code>RateLimit-Remaining</code> and
<code>RateLimit-Reset</code>; a 429 says when to come back in <code>Retry-After</code>.</p>
<p>Tool calls are not deduplicated: after a timeout, read before repeating a write. The agents' checkout doors
(UCP, ACP) take an <code>Idempotency-Key</code>.</p>
</section>
</div>
</div>
<div class="api-reference" data-api-reference data-spec="${OPENAPI_PATH}">
<p class="docs-loading">Loading the reference… It needs JavaScript; the document itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p>
</div>`,
  });
}
