// The developer documentation (/docs, /docs/mcp) as a site of the page helper: read-only pages for integrators, in
// English like the API they describe, with a slim header of their own (not the shop's chrome: no cart, no chat).
import type { Request, Response } from "express";
import type { ToolError } from "../../core/errors.ts";
import type { WebDeps } from "../deps.ts";
import settingsGet from "../../tools/settings/get.ts";
import type { Assets } from "../assets.ts";
import { failureView } from "../components.ts";
import { Csrf } from "../csrf.ts";
import { documentHtml } from "../document.ts";
import { html, type Html } from "../html.ts";
import { formParser, WebRequest, type Outcome, type Site, type View } from "../page.ts";
import { Refreshing } from "../refreshed-value.ts";
import { PUBLIC_READER } from "../storefront/site.ts";

/** How old the shop name in the docs' header and titles may be (it is read by every docs page). */
const SHOP_NAME_TTL_MS = 10_000;

const SECTIONS = [
  { href: "/docs", label: "API reference" },
  { href: "/docs/mcp", label: "MCP" },
];

export class DocsSite implements Site<WebRequest> {
  readonly name = "docs";
  readonly csrf: Csrf;
  // The docs have no forms; the page helper still wants a parser for any other method.
  readonly forms = formParser({ bytes: "1kb", fields: 1 });
  private readonly shopName: Refreshing<string>;

  readonly deps: WebDeps;
  readonly assets: Assets;

  constructor(deps: WebDeps, assets: Assets) {
    this.deps = deps;
    this.assets = assets;
    this.csrf = new Csrf(deps.secret);
    this.shopName = new Refreshing(SHOP_NAME_TTL_MS, (error) => deps.log.warn("docs shop name refresh failed", { error: String(error) }));
  }

  context(req: Request, res: Response): WebRequest {
    return new WebRequest(this.deps, req, res, "web", (request) => this.deps.auth.caller(request));
  }

  sessionKey(): string | undefined {
    return undefined;
  }

  async render(web: WebRequest, view: View): Promise<Html> {
    const shop = await this.shopName.get(async () => (await web.callAs(PUBLIC_READER, settingsGet, {})).branding.shopName);
    const path = web.req.path;
    return documentHtml(this.assets, {
      title: `${view.title} – ${shop}`,
      lang: "en",
      description: view.description,
      noindex: view.noindex,
      styles: ["docs.css"],
      scripts: view.scripts ?? [],
      icon: "icon.svg",
      bodyClass: "docs",
      header: html`<header class="docs-header"><div class="docs-bar">
<a class="docs-brand" href="/">${shop}</a><span class="docs-kind">for developers</span>
<nav class="docs-nav" aria-label="Documentation"><ul>
${SECTIONS.map(({ href, label }) => html`<li><a href="${href}"${path === href ? html` aria-current="page"` : ""}>${label}</a></li>`)}
<li><a href="/api/v1/openapi.json">OpenAPI JSON</a></li>
<li><a href="/admin/api-keys">API keys</a></li>
</ul></nav>
</div></header>`,
      main: view.main,
      footer: html`<footer class="docs-footer"><p>The same tools answer on every door: REST, MCP, the storefront and the admin. <a href="/api/v1/tools">Live catalogue</a> · <a href="/">${shop}</a></p></footer>`,
    });
  }

  failure(web: WebRequest, error: ToolError): Outcome {
    return failureView(error, web.requestId, "/docs");
  }
}
