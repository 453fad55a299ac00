// The two DOM builders the admin assistant's views share: an element with class and text, and a plain button.

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A `type="button"` button (never submits a form). */
export function button(text: string, className: string): HTMLButtonElement {
  const node = el("button", className, text);
  node.type = "button";
  return node;
}
