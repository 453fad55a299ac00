// HTML building blocks of the server-rendered pages: the one escape function, the document shell, body text and money.

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values; every dynamic value goes through it. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** Integer øre as Danish kroner: 123450 → "1.234,50 kr.". */
export function formatKr(oere: number): string {
  const sign = oere < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(oere));
  const kroner = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}${kroner},${String(abs % 100).padStart(2, "0")} kr.`;
}

/**
 * Body text as HTML: blank lines separate blocks, a line starting with "## " is a heading,
 * the other lines of a block form one paragraph (single line breaks kept).
 */
export function bodyHtml(text: string, headingLevel: 2 | 3 = 2): string {
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
  return out.join("\n");
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.55;margin:0;color:#1d1d1f;background:#fff}
header,main,footer{max-width:64rem;margin:0 auto;padding:1rem 1.25rem}
header nav a{margin-right:1rem}
a{color:#0b5cad}
img{max-width:100%;height:auto}
.card-list{list-style:none;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr))}
.card{border:1px solid #ddd;border-radius:.5rem;padding:1rem}
.price{font-weight:600}
.hero{padding:2rem 0}
.button{display:inline-block;padding:.6rem 1.1rem;border-radius:.4rem;background:#0b5cad;color:#fff;text-decoration:none}
.button.secondary{background:#fff;color:#0b5cad;border:1px solid #0b5cad}
.columns{display:grid;gap:1.5rem}
.columns-2{grid-template-columns:repeat(2,1fr)}
.columns-3{grid-template-columns:repeat(3,1fr)}
.columns-4{grid-template-columns:repeat(4,1fr)}
@media (max-width:40rem){.columns{grid-template-columns:1fr}}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
`.trim();

/** A complete, accessible HTML5 document around already-escaped main content. */
export function documentHtml(title: string, main: string): string {
  return `<!doctype html>
<html lang="da">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><nav aria-label="Hovedmenu"><a href="/">Forside</a><a href="/services">Ydelser</a></nav></header>
<main>
${main}
</main>
</body>
</html>
`;
}
