// The small Markdown the assistants write (paragraphs, lists, **bold**, *italic*, `code`, [links](url), headings),
// turned into DOM nodes with createElement and text nodes only: no HTML from the model ever reaches innerHTML, and a
// link only goes to http(s) or a path on this site.

const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|`([^`]+)`|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

/** A URL the chat may link to: same-site paths and http(s) addresses; anything else (javascript:, data:) is refused. */
export function safeHref(raw: string): string | null {
  try {
    if (raw.startsWith("/")) {
      // A browser reads "//host" and a slash then backslash as another site: the path must resolve to this origin.
      const url = new URL(raw, location.origin);
      return url.origin === location.origin ? `${url.pathname}${url.search}${url.hash}` : null;
    }
    const url = new URL(raw);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function link(text: string, raw: string): Node {
  const href = safeHref(raw);
  if (!href) return document.createTextNode(text);
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (!href.startsWith("/") && new URL(href).origin !== location.origin) {
    a.target = "_blank";
    a.rel = "noopener noreferrer";
  }
  return a;
}

function element(tag: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.append(...inline(text));
  return node;
}

/** Inline markup of one line of text. */
function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    const [, bold, italic, code, linkText, linkHref, bare] = match;
    if (bold !== undefined) nodes.push(element("strong", bold));
    else if (italic !== undefined) nodes.push(element("em", italic));
    else if (code !== undefined) {
      const node = document.createElement("code");
      node.textContent = code;
      nodes.push(node);
    } else if (linkText !== undefined && linkHref !== undefined) nodes.push(link(linkText, linkHref));
    else if (bare !== undefined) nodes.push(link(bare, bare));
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

const BULLET = /^\s*[-*•]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;
const HEADING = /^#{1,6}\s+(.*)$/;

/** Renders Markdown text as a fragment of block elements (p, ul, ol, strong headings). */
export function renderMarkdown(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  let list: HTMLElement | null = null;
  let paragraph: HTMLElement | null = null;
  for (const line of text.split("\n")) {
    const bullet = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (bullet) {
      const tag = BULLET.test(line) ? "UL" : "OL";
      if (!list || list.tagName !== tag) fragment.append((list = document.createElement(tag)));
      list.append(element("li", bullet[1]!));
      paragraph = null;
      continue;
    }
    list = null;
    if (!line.trim()) {
      paragraph = null;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const p = document.createElement("p");
      p.append(element("strong", heading[1]!));
      fragment.append(p);
      paragraph = null;
      continue;
    }
    if (paragraph) paragraph.append(document.createElement("br"), ...inline(line));
    else fragment.append((paragraph = element("p", line)));
  }
  return fragment;
}
