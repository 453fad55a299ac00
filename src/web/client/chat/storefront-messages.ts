// How the storefront widget shows one chat message: the shopper's text, the assistant's Markdown, a status line per
// tool call, product cards from catalogue results and a confirm card when the checkout waits for the shopper.
import { getToolName, isToolUIPart, type DynamicToolUIPart, type ToolUIPart, type UIMessage } from "ai";
import { formatKr } from "../../html.ts";
import { el } from "./dom.ts";
import { giftCardOf } from "./gift-card.ts";
import { renderMarkdown, safeHref } from "./markdown.ts";

export type ToolPart = ToolUIPart | DynamicToolUIPart;

/** What a message view needs from the widget around it. */
export interface MessageContext {
  /** The newest cart total (øre) the conversation has seen, for the confirm card. */
  cartTotal(): number | undefined;
  respond(approvalId: string, approved: boolean): void;
}

/** Status texts per LLM tool name: while running, when done, when it failed. */
const TOOL_TEXTS: Record<string, [string, string, string]> = {
  products_search: ["Søger…", "Søgte i sortimentet", "Søgningen mislykkedes"],
  products_get: ["Henter varen…", "Hentede varen", "Kunne ikke hente varen"],
  products_compare: ["Sammenligner…", "Sammenlignede varerne", "Kunne ikke sammenligne"],
  products_get_answers: ["Slår op…", "Slog op i varens svar", "Kunne ikke slå op"],
  products_list_variants: ["Henter varianter…", "Hentede varianterne", "Kunne ikke hente varianter"],
  categories_list: ["Henter kategorier…", "Hentede kategorierne", "Kunne ikke hente kategorier"],
  categories_get: ["Henter kategorien…", "Hentede kategorien", "Kunne ikke hente kategorien"],
  settings_get_policies: ["Læser betingelserne…", "Læste betingelserne", "Kunne ikke læse betingelserne"],
  cart_get_summary: ["Kigger i kurven…", "Kiggede i kurven", "Kunne ikke læse kurven"],
  cart_add: ["Lægger i kurven…", "Lagt i kurven", "Kunne ikke lægge i kurven"],
  cart_update_quantity: ["Retter antallet…", "Kurven er opdateret", "Kunne ikke rette antallet"],
  cart_remove: ["Fjerner fra kurven…", "Fjernet fra kurven", "Kunne ikke fjerne varen"],
  cart_clear: ["Tømmer kurven…", "Kurven er tømt", "Kunne ikke tømme kurven"],
  cart_set_shipping_address: ["Gemmer adressen…", "Adressen er gemt", "Kunne ikke gemme adressen"],
  cart_checkout: ["Opretter bestillingen…", "Bestillingen er oprettet", "Bestillingen blev ikke oprettet"],
  discounts_try_apply: ["Prøver rabatkoden…", "Rabatkoden er prøvet", "Kunne ikke prøve rabatkoden"],
  address_autocomplete: ["Slår adressen op…", "Slog adressen op", "Kunne ikke slå adressen op"],
  address_validate: ["Tjekker adressen…", "Tjekkede adressen", "Kunne ikke tjekke adressen"],
  address_lookup_postal_code: ["Slår postnummeret op…", "Slog postnummeret op", "Kunne ikke slå postnummeret op"],
  user_get_last_shipping: ["Henter din adresse…", "Hentede din adresse", "Kunne ikke hente din adresse"],
  user_list_orders: ["Henter dine ordrer…", "Hentede dine ordrer", "Kunne ikke hente dine ordrer"],
  user_get_order_status: ["Henter ordrestatus…", "Hentede ordrestatus", "Kunne ikke hente ordrestatus"],
  marketing_subscribe: ["Tilmelder nyhedsbrevet…", "Tilmeldt nyhedsbrevet", "Kunne ikke tilmelde nyhedsbrevet"],
};
const OTHER_TOOL: [string, string, string] = ["Arbejder…", "Færdig", "Det mislykkedes"];

/** Tools whose success changed the cart (cart_checkout empties it). */
export const CART_TOOLS = new Set(["cart_add", "cart_update_quantity", "cart_remove", "cart_clear", "cart_checkout"]);

const MAX_CARDS = 6;

interface ProductLike {
  slug: string;
  name: string;
  brand?: string | null;
  priceDkk: number;
  image: string | null;
}

export function toolParts(message: UIMessage): ToolPart[] {
  return message.parts.filter(isToolUIPart);
}

export function renderMessage(message: UIMessage, context: MessageContext): HTMLElement {
  if (message.role === "user") {
    const text = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    return el("li", { class: "chat-msg chat-msg-user" }, el("span", { class: "visually-hidden" }, "Du: "), el("p", {}, text));
  }
  const item = el("li", { class: "chat-msg chat-msg-assistant" }, el("span", { class: "visually-hidden" }, "Assistenten: "));
  for (const part of message.parts) {
    if (part.type === "text" && part.text) item.append(el("div", { class: "chat-text" }, renderMarkdown(part.text)));
    else if (isToolUIPart(part)) item.append(...renderTool(part, context));
  }
  return item;
}

function renderTool(part: ToolPart, context: MessageContext): Node[] {
  const name = getToolName(part);
  const [doing, done, failed] = TOOL_TEXTS[name] ?? OTHER_TOOL;
  switch (part.state) {
    case "input-streaming":
    case "input-available":
      return [status(doing, "running")];
    case "approval-requested":
      return [confirmCard(part.approval.id, context, giftCardOf(name, part.input))];
    case "approval-responded":
      return [status(part.approval.approved ? doing : "Bestillingen er annulleret", part.approval.approved ? "running" : "denied")];
    case "output-denied":
      return [status("Bestillingen er annulleret", "denied")];
    case "output-error":
      return [status(failed, "failed")];
    case "output-available":
      return [status(done, "done"), ...results(name, part.output)];
  }
}

function status(text: string, state: "running" | "done" | "failed" | "denied"): HTMLElement {
  return el("p", { class: `chat-tool chat-tool-${state}` }, text);
}

function confirmCard(approvalId: string, context: MessageContext, giftCard: string | null): HTMLElement {
  const total = context.cartTotal();
  const confirm = el("button", { type: "button", class: "button button-accent button-small", "data-chat-approve": true }, "Bekræft bestilling");
  const cancel = el("button", { type: "button", class: "button button-secondary button-small", "data-chat-deny": true }, "Annullér");
  confirm.addEventListener("click", () => context.respond(approvalId, true));
  cancel.addEventListener("click", () => context.respond(approvalId, false));
  return el(
    "div",
    { class: "chat-confirm", role: "group", "aria-label": "Bekræft bestillingen" },
    el("p", { class: "chat-confirm-title" }, "Skal vi oprette bestillingen?"),
    total !== undefined ? el("p", {}, "I alt ", el("span", { class: "price" }, formatKr(total)), " inkl. moms og fragt.") : null,
    giftCard ? el("p", { class: "chat-confirm-giftcard" }, `Gavekortet …${giftCard} betaler, hvad der er på det; resten betaler du via linket.`) : null,
    el("p", { class: "hint" }, "Varerne reserveres, og du får et link til betaling."),
    el("div", { class: "chat-confirm-actions" }, confirm, cancel),
  );
}

/** Product cards for catalogue results; other results show only their status line. */
function results(name: string, output: unknown): Node[] {
  const products =
    name === "products_search" && Array.isArray(output)
      ? output.flatMap((item) => productOf(item, "firstImage"))
      : name === "products_get"
        ? productOf(output, "images")
        : [];
  if (!products.length) return [];
  return [el("ul", { class: "chat-products" }, ...products.slice(0, MAX_CARDS).map(productCard))];
}

/** A product from a search summary (`firstImage`) or a detail (`images`), or nothing when the shape is not one. */
function productOf(value: unknown, imageField: "firstImage" | "images"): ProductLike[] {
  if (typeof value !== "object" || value === null) return [];
  const product = value as Record<string, unknown>;
  if (typeof product.slug !== "string" || typeof product.name !== "string" || typeof product.priceDkk !== "number") return [];
  const image = imageField === "images" ? (Array.isArray(product.images) ? product.images[0] : null) : product.firstImage;
  return [{
    slug: product.slug,
    name: product.name,
    brand: typeof product.brand === "string" ? product.brand : null,
    priceDkk: product.priceDkk,
    image: typeof image === "string" ? image : null,
  }];
}

function productCard(product: ProductLike): HTMLElement {
  const image = product.image ? safeHref(product.image) : null;
  return el(
    "li",
    { class: "chat-product" },
    el(
      "a",
      { href: `/products/${encodeURIComponent(product.slug)}`, class: "chat-product-link" },
      el("span", { class: "chat-product-media" }, image ? el("img", { src: image, alt: "", loading: "lazy", decoding: "async" }) : null),
      el(
        "span",
        { class: "chat-product-body" },
        product.brand ? el("span", { class: "chat-product-brand" }, product.brand) : null,
        el("span", { class: "chat-product-name" }, product.name),
        el("span", { class: "price" }, formatKr(product.priceDkk)),
      ),
    ),
  );
}
