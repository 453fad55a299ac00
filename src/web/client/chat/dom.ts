// A tiny DOM builder for the chat views (storefront widget and admin assistant): elements from a tag, attributes and children, text always as text nodes.

type Child = Node | string | null | undefined | false;

/** `el("a", { href: "/x", class: "link" }, "text")`; an attribute whose value is false, null or undefined is left out. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/** A `type="button"` button (never submits a form). */
export function button(text: string, className: string): HTMLButtonElement {
  return el("button", { type: "button", class: className }, text);
}
