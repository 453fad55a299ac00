// The HTML document shell every web page shares (storefront and admin): head, one stylesheet, module scripts, skip link.
import type { Assets } from "./assets.ts";
import { html, type Html } from "./html.ts";

export interface DocumentParts {
  /** The whole <title>. */
  title: string;
  lang?: string;
  description?: string | undefined;
  /** Absolute URL of the canonical address of this page. */
  canonical?: string | undefined;
  /** Keeps the page out of search engines (cart, checkout, account, admin). */
  noindex?: boolean | undefined;
  /** Extra head markup: Open Graph tags, JSON-LD. */
  head?: Html | undefined;
  /** Stylesheet asset names, e.g. ["site.css"]. */
  styles: readonly string[];
  /** Client script asset names, loaded as deferred module scripts. */
  scripts: readonly string[];
  /** Asset name of the favicon (an SVG), if any. */
  icon?: string | undefined;
  bodyClass?: string | undefined;
  header: Html;
  main: Html;
  footer: Html;
}

export function documentHtml(assets: Assets, parts: DocumentParts): Html {
  return html`<!doctype html>
<html lang="${parts.lang ?? "da"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
${parts.description ? html`<meta name="description" content="${parts.description}">\n` : ""}${parts.canonical ? html`<link rel="canonical" href="${parts.canonical}">\n` : ""}${parts.noindex ? html`<meta name="robots" content="noindex">\n` : ""}${parts.styles.map((name) => html`<link rel="stylesheet" href="${assets.url(name)}">\n`)}${parts.scripts.map((name) => html`<script type="module" src="${assets.url(name)}"></script>\n`)}${parts.icon ? html`<link rel="icon" href="${assets.url(parts.icon)}" type="image/svg+xml">\n` : ""}${parts.head ?? ""}
</head>
<body${parts.bodyClass ? html` class="${parts.bodyClass}"` : ""}>
<a class="skip-link" href="#main">Gå til indholdet</a>
${parts.header}
<main id="main" tabindex="-1">
${parts.main}
</main>
${parts.footer}
</body>
</html>
`;
}
