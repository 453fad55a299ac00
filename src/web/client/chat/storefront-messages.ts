// How the storefront widget shows one chat message: the shopper's text, the assistant's Markdown, a status line per
// tool call, product cards (stock, add to cart) from catalogue results, the payment button of a placed order, and a
// confirm card, worded for the tool, when a change waits for the shopper.
import { getToolName, isToolUIPart, type DynamicToolUIPart, type ToolUIPart, type UIMessage } from "ai";
import { formatMoney } from "../../html.ts";
import { el } from "./dom.ts";
import { giftCardOf, refundText } from "./gift-card.ts";
import { renderMarkdown, safeHref } from "./markdown.ts";

export type ToolPart = ToolUIPart | DynamicToolUIPart;

/** What a message view needs from the widget around it. */
export interface MessageContext {
  /** The newest cart total (øre) the conversation has seen, for the confirm card. */
  cartTotal(): number | undefined;
  respond(approvalId: string, approved: boolean): void;
  /** Puts one of a product into the shopper's cart (product cards' button); resolves to the cart's new unit count. */
  addToCart(productSlug: string): Promise<number>;
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
  giftcards_get: ["Slår gavekortet op…", "Slog gavekortet op", "Kunne ikke slå gavekortet op"],
  customer_list_addresses: ["Henter dine adresser…", "Hentede dine adresser", "Kunne ikke hente dine adresser"],
  customer_save_address: ["Gemmer adressen…", "Adressen er gemt", "Kunne ikke gemme adressen"],
  customer_delete_address: ["Sletter adressen…", "Adressen er slettet", "Kunne ikke slette adressen"],
  support_create_ticket: ["Sender til kundeservice…", "Sendt til kundeservice", "Kunne ikke sende til kundeservice"],
  orders_payments: ["Henter betalinger…", "Hentede betalingerne", "Kunne ikke hente betalingerne"],
  orders_cancel: ["Annullerer ordren…", "Ordren er annulleret", "Ordren blev ikke annulleret"],
  orders_change_address: ["Ændrer adressen…", "Leveringsadressen er ændret", "Adressen blev ikke ændret"],
  orders_item_options: ["Henter varianter…", "Hentede varianterne", "Kunne ikke hente varianter"],
  returns_request: ["Anmoder om retur…", "Returen er anmodet", "Returen blev ikke anmodet"],
  returns_list: ["Henter returneringer…", "Hentede returneringerne", "Kunne ikke hente returneringer"],
  returns_get: ["Henter returen…", "Hentede returen", "Kunne ikke hente returen"],
  returns_policy: ["Slår returreglerne op…", "Slog returreglerne op", "Kunne ikke slå returreglerne op"],
};

/** How the confirm card asks about each tool that waits for the shopper, and what a "no" leaves. */
interface Approval {
  question: string;
  yes: string;
  no: string;
  hint: string;
  denied: string;
}
const APPROVALS: Record<string, Approval> = {
  cart_checkout: { question: "Skal vi oprette bestillingen?", yes: "Bekræft bestilling", no: "Annullér", hint: "Varerne reserveres, og du får et link til betaling.", denied: "Bestillingen er annulleret" },
  orders_cancel: { question: "Skal ordren annulleres?", yes: "Annuller ordren", no: "Behold ordren", hint: "Varerne går tilbage på lager, og det betalte betales tilbage.", denied: "Ordren er ikke annulleret" },
  orders_change_address: { question: "Skal pakken sendes til en ny adresse?", yes: "Skift adresse", no: "Behold adressen", hint: "Kan kun ændres, før pakken er sendt.", denied: "Adressen er ikke ændret" },
  customer_save_address: { question: "Skal adressen gemmes?", yes: "Gem adressen", no: "Lad være", hint: "Den gemmes i din adressebog.", denied: "Adressen er ikke gemt" },
  customer_delete_address: { question: "Skal adressen slettes?", yes: "Slet adressen", no: "Behold den", hint: "Den fjernes fra din adressebog.", denied: "Adressen er ikke slettet" },
  returns_request: { question: "Skal vi anmode om retur?", yes: "Anmod om retur", no: "Lad være", hint: "Du får en returvejledning på e-mail, når vi har godkendt den.", denied: "Returen er ikke anmodet" },
  support_create_ticket: { question: "Skal vi sende din henvendelse til en medarbejder?", yes: "Send henvendelsen", no: "Lad være", hint: "Du får svar på e-mail.", denied: "Henvendelsen er ikke sendt" },
};
const OTHER_APPROVAL: Approval = { question: "Skal vi gøre det?", yes: "Ja, gør det", no: "Nej", hint: "", denied: "Det blev ikke gjort" };
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
  /** Units in stock, when the result says. */
  stock: number | null;
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
  const approval = APPROVALS[name] ?? OTHER_APPROVAL;
  switch (part.state) {
    case "input-streaming":
    case "input-available":
      return [status(doing, "running")];
    case "approval-requested":
      return [confirmCard(name, part.input, part.approval.id, context)];
    case "approval-responded":
      return [status(part.approval.approved ? doing : approval.denied, part.approval.approved ? "running" : "denied")];
    case "output-denied":
      return [status(approval.denied, "denied")];
    case "output-error":
      return [status(failed, "failed")];
    case "output-available":
      return [status(doneText(name, done, part.input, part.output), "done"), ...results(name, part.output, context)];
  }
}

/** "Lagt i kurven: <product>", from the cart line of the product just added; other tools say their fixed text. */
function doneText(name: string, done: string, input: unknown, output: unknown): string {
  if (name !== "cart_add") return done;
  const slug = (input as { productSlug?: unknown } | undefined)?.productSlug;
  const lines = (output as { lines?: Array<{ productSlug?: unknown; productName?: unknown }> } | null)?.lines;
  const line = Array.isArray(lines) ? lines.find((candidate) => candidate.productSlug === slug) : undefined;
  return typeof line?.productName === "string" ? `${done}: ${line.productName}` : done;
}

/** The shop currency and VAT the page's chat root names (`data-currency`, `data-vat`). */
function shop(): { currency: string; vat: boolean } {
  const root = document.getElementById("chat-root");
  return { currency: root?.dataset.currency ?? "DKK", vat: root ? root.hasAttribute("data-vat") : true };
}

const price = (minor: number) => formatMoney(minor, shop().currency);

function status(text: string, state: "running" | "done" | "failed" | "denied"): HTMLElement {
  return el("p", { class: `chat-tool chat-tool-${state}` }, text);
}

/** What the confirm card shows of the call's input, so the shopper approves what will happen, not a guess. */
function approvalDetails(name: string, input: unknown, context: MessageContext): Node | null {
  const given = (input ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof given[key] === "string" ? (given[key] as string) : "");
  if (name === "cart_checkout") {
    const total = context.cartTotal();
    const giftCard = giftCardOf(name, input);
    const details = [
      total === undefined ? null : el("p", {}, "I alt ", el("span", { class: "price" }, price(total)), shop().vat ? " inkl. moms og fragt." : " inkl. fragt."),
      giftCard ? el("p", { class: "chat-confirm-detail" }, `Gavekortet …${giftCard} betaler, hvad der er på det; resten betaler du via linket.`) : null,
    ].filter((node) => node !== null);
    return details.length ? el("div", {}, ...details) : null;
  }
  if (name === "orders_change_address" || name === "customer_save_address") {
    return el("p", { class: "chat-confirm-detail" }, [text("name"), text("address"), `${text("zip")} ${text("city")}`.trim()].filter(Boolean).join(", "));
  }
  if (name === "orders_cancel") {
    return el("p", { class: "chat-confirm-detail" }, refundText(input));
  }
  if (name === "support_create_ticket") return el("p", { class: "chat-confirm-detail" }, text("subject"));
  if (name === "returns_request") {
    const count = Array.isArray(given.items) ? given.items.reduce((sum: number, item: { quantity?: unknown }) => sum + (typeof item.quantity === "number" ? item.quantity : 0), 0) : 0;
    const what = given.kind === "complaint" ? "Reklamation" : "Fortrydelse";
    return el("div", {}, el("p", { class: "chat-confirm-detail" }, `${what}: ${count} ${count === 1 ? "vare" : "varer"}${given.exchangeVariantId ? ", byttes til en anden variant" : ""}.`), given.exchangeVariantId ? null : el("p", { class: "chat-confirm-detail" }, refundText(input)));
  }
  return null;
}

function confirmCard(name: string, input: unknown, approvalId: string, context: MessageContext): HTMLElement {
  const approval = APPROVALS[name] ?? OTHER_APPROVAL;
  const confirm = el("button", { type: "button", class: "button button-accent button-small", "data-chat-approve": true }, approval.yes);
  const cancel = el("button", { type: "button", class: "button button-secondary button-small", "data-chat-deny": true }, approval.no);
  confirm.addEventListener("click", () => context.respond(approvalId, true));
  cancel.addEventListener("click", () => context.respond(approvalId, false));
  return el(
    "div",
    { class: "chat-confirm", role: "group", "aria-label": approval.question },
    el("p", { class: "chat-confirm-title" }, approval.question),
    approvalDetails(name, input, context),
    approval.hint ? el("p", { class: "hint" }, approval.hint) : null,
    el("div", { class: "chat-confirm-actions" }, confirm, cancel),
  );
}

/** Product cards for catalogue results, the payment button of a placed order; other results show only their status line. */
function results(name: string, output: unknown, context: MessageContext): Node[] {
  if (name === "cart_checkout") return paymentButton(output);
  const products =
    name === "products_search" && Array.isArray(output)
      ? output.flatMap((item) => productOf(item, "firstImage"))
      : name === "products_get"
        ? productOf(output, "images")
        : [];
  if (!products.length) return [];
  return [el("ul", { class: "chat-products" }, ...products.slice(0, MAX_CARDS).map((product) => productCard(product, context)))];
}

/** The placed order's link to payment (a path on this shop or the payment provider's page). */
function paymentButton(output: unknown): Node[] {
  const url = (output as { paymentUrl?: unknown } | null)?.paymentUrl;
  const href = typeof url === "string" ? safeHref(url) : null;
  if (!href) return [];
  return [el("p", { class: "chat-pay" }, el("a", { class: "button button-accent", href, "data-chat-pay": true }, "Gå til betaling"))];
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
    stock: typeof product.stock === "number" ? product.stock : null,
  }];
}

function productCard(product: ProductLike, context: MessageContext): HTMLElement {
  const image = product.image ? safeHref(product.image) : null;
  const soldOut = product.stock !== null && product.stock <= 0;
  const href = `/products/${encodeURIComponent(product.slug)}`;
  return el(
    "li",
    { class: "chat-product" },
    el(
      "a",
      { href, class: "chat-product-link" },
      el("span", { class: "chat-product-media" }, image ? el("img", { src: image, alt: "", loading: "lazy", decoding: "async" }) : null),
      el(
        "span",
        { class: "chat-product-body" },
        product.brand ? el("span", { class: "chat-product-brand" }, product.brand) : null,
        el("span", { class: "chat-product-name" }, product.name),
        el("span", { class: "price" }, price(product.priceDkk)),
        el("span", { class: `chat-product-stock${soldOut ? " chat-product-soldout" : ""}` }, soldOut ? "Udsolgt" : product.stock !== null && product.stock <= 5 ? `Kun ${product.stock} på lager` : "På lager"),
      ),
    ),
    soldOut ? null : addButton(product, href, context),
  );
}

/** "Læg i kurv": one unit through cart.add; a product with variants goes to its page to choose one. */
function addButton(product: ProductLike, href: string, context: MessageContext): HTMLElement {
  const add = el("button", { type: "button", class: "button button-secondary button-small chat-product-add", "aria-label": `Læg ${product.name} i kurven` }, "Læg i kurv");
  add.addEventListener("click", () => {
    add.disabled = true;
    context.addToCart(product.slug).then(
      () => {
        add.textContent = "Lagt i kurven";
      },
      (error: unknown) => {
        if (error instanceof Error && error.message === "variant_required") {
          window.location.assign(href);
          return;
        }
        add.disabled = false;
        add.textContent = "Prøv igen";
      },
    );
  });
  return add;
}
