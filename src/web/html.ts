// HTML building blocks of the server-rendered pages: the `html` template tag that escapes every interpolated value
// (with the escape function and money formatting of src/core/format.ts, re-exported here) and body text.

import { escapeHtml } from "../core/format.ts";

export { count, escapeHtml, formatMoney } from "../core/format.ts";

/** Markup that is already safe: produced by `html`, or trusted by `raw`. Interpolating it does not escape it again. */
export class Html {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** What `html` accepts between `${}`: markup, text (escaped), numbers, arrays of these, and nothing (null, undefined, false). */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (value === null || value === undefined || value === false || value === true) return "";
  if (typeof value === "string" || typeof value === "number") return escapeHtml(value);
  let out = "";
  for (const item of value) out += render(item);
  return out;
}

/**
 * The template tag of every view: `html\`<p>${name}</p>\`` escapes `name`, so escaping is the default and
 * forgetting it is impossible; nested `html` results and arrays of them are inserted as markup.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Marks a string as markup. Only for output of trusted code (never for data): e.g. JSON made safe by `jsonScript`. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** A JSON value as the content of a <script type="application/ld+json"> (no "<" can close the element early). */
export function jsonScript(value: unknown): Html {
  return raw(JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026"));
}

/**
 * Body text as HTML: blank lines separate blocks, a line starting with "## " is a heading,
 * the other lines of a block form one paragraph (single line breaks kept).
 */
export function bodyHtml(text: string, headingLevel: 2 | 3 = 2): Html {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length) out.push(`<p>${paragraph.map(escapeHtml).join("<br>\n")}</p>`);
      paragraph = [];
    };
    for (const line of block.split("\n")) {
      const trimmed = line.trim();
      if (trimmed.startsWith("## ")) {
        flush();
        const heading = trimmed.slice(3).trim();
        if (heading) out.push(`<h${headingLevel}>${escapeHtml(heading)}</h${headingLevel}>`);
      } else if (trimmed) {
        paragraph.push(trimmed);
      }
    }
    flush();
  }
  return raw(out.join("\n"));
}
