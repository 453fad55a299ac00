// Danish words for shop states and refusals: order statuses, tool refusal codes and the one-shot notices after a form.
import { ToolError } from "../../core/errors.ts";

export const ORDER_STATUS: Record<string, string> = {
  pending_payment: "Afventer betaling",
  pending: "Modtaget",
  paid: "Betalt",
  flagged_review: "Under behandling",
  processing: "Pakkes",
  shipped: "Afsendt",
  delivered: "Leveret",
  completed: "Gennemført",
  cancelled: "Annulleret",
  refunded: "Refunderet",
  partial_refund: "Delvist refunderet",
  disputed: "Under indsigelse",
};

const REFUSALS: Record<string, string> = {
  insufficient_stock: "Der er desværre ikke så mange på lager.",
  quantity_limit: "Du kan højst købe 100 af en vare ad gangen.",
  variant_required: "Vælg en størrelse først.",
  cart_empty: "Din kurv er tom.",
  shipping_address_required: "Udfyld leveringsadressen først.",
  invalid_address: "Postnummer og by passer ikke sammen. Tjek adressen.",
  discount_unavailable: "Rabatkoden gælder ikke længere. Fjern den eller prøv en anden.",
  invalid_code: "Koden er forkert eller udløbet. Bed om en ny kode.",
  too_many_attempts: "For mange forkerte forsøg. Bed om en ny kode.",
  no_customer: "Log ind for at se dine ordrer.",
  illegal_transition: "Ordren kan ikke længere annulleres: den er sendt. Du kan returnere varerne, når du har fået dem.",
  already_shipped: "Ordren er allerede sendt, så adressen kan ikke ændres. Kontakt os, hvis pakken skal omadresseres.",
  refund_failed: "Betalingen kunne ikke refunderes automatisk. Prøv igen, eller kontakt os.",
  return_window_closed: "Fristen for at returnere er udløbet: returfristen regnes fra levering, og reklamation kan ske i 2 år.",
  not_returnable: "Varen er lavet til dig og kan ikke fortrydes. Er den i stykker eller forkert, kan du reklamere.",
  quantity_exceeds_order: "Du har allerede anmodet om retur af så mange.",
  invalid_exchange_variant: "Den variant kan du ikke bytte til.",
  not_shipped: "Ordren er ikke sendt endnu – annuller den i stedet.",
  order_closed: "Ordren er lukket, så der kan ikke returneres fra den.",
  too_many_addresses: "Du kan gemme højst 20 adresser. Slet en, før du tilføjer en ny.",
  unknown_delivery_method: "Den leveringsmåde findes ikke længere. Vælg en anden.",
  pickup_point_required: "Vælg den pakkeshop, du vil hente pakken i.",
  invalid_pickup_point: "Vælg en pakkeshop fra listen under leveringsmåden.",
  payment_required: "Ændringen gør ordren dyrere, og den er allerede betalt. Vælg noget, der ikke koster mere, eller kontakt os.",
  payment_in_progress: "Din betaling er ved at blive gennemført. Vent et øjeblik, og prøv igen.",
  invalid_variant: "Den variant findes ikke til varen. Vælg en fra listen.",
  out_of_stock: "Den variant er desværre udsolgt.",
  giftcard_expired: "Gavekortet er udløbet. Vælg en anden måde at få pengene tilbage på.",
};

/** What to tell the shopper about a refused or invalid form: a Danish sentence per known rule, else a general one. */
export function reason(error: unknown): string {
  if (error instanceof ToolError) {
    const known = REFUSALS[error.code];
    if (known) return known;
    if (error.status === 404) return "Varen findes ikke længere.";
    if (error.status === 400) return "Tjek de markerede felter.";
  }
  return "Det kunne ikke lade sig gøre. Prøv igen.";
}

/** The Danish text of a refusal code carried in an address (`?error=<code>`); unknown codes get the general text. */
export function refusalText(code: string): string {
  return REFUSALS[code] ?? "Det kunne ikke lade sig gøre. Prøv igen.";
}

export const DISCOUNT_REASONS: Record<string, string> = {
  unknown: "Rabatkoden findes ikke.",
  inactive: "Rabatkoden er ikke aktiv.",
  expired: "Rabatkoden er udløbet.",
  used_up: "Rabatkoden er brugt op.",
};

/** One-shot notices shown after a redirect (`?notice=<key>`): fixed texts, so the address cannot inject any. */
export const NOTICES: Record<string, { kind: "success" | "info" | "error"; text: string }> = {
  added: { kind: "success", text: "Varen er lagt i kurven." },
  updated: { kind: "success", text: "Kurven er opdateret." },
  removed: { kind: "info", text: "Varen er fjernet fra kurven." },
  discount: { kind: "success", text: "Rabatkoden er tilføjet." },
  "logged-in": { kind: "success", text: "Du er logget ind." },
  "logged-out": { kind: "info", text: "Du er logget ud." },
  "app-revoked": { kind: "success", text: "Forbindelsen er afbrudt. Appen har ikke længere adgang til din konto." },
  empty: { kind: "info", text: "Din kurv er tom. Læg en vare i kurven for at gå til kassen." },
  "order-cancelled": { kind: "success", text: "Ordren er annulleret. Var den betalt, får du en e-mail, når pengene er på vej tilbage." },
  "address-changed": { kind: "success", text: "Leveringsadressen er ændret." },
  "items-changed": { kind: "success", text: "Varen er skiftet. Du får en bekræftelse på e-mail." },
  "delivery-changed": { kind: "success", text: "Leveringsmåden er ændret. Du får en bekræftelse på e-mail." },
  "address-saved": { kind: "success", text: "Adressen er gemt." },
  "address-default": { kind: "success", text: "Adressen er nu din standardadresse." },
  "address-deleted": { kind: "info", text: "Adressen er slettet." },
  "return-requested": { kind: "success", text: "Tak – vi har modtaget din anmodning om retur og sender en returvejledning på e-mail." },
};

const METHOD_NAMES: Record<string, string> = { card: "kort", mobilepay: "MobilePay", klarna: "Klarna" };

/** How the shopper can pay in this shop, as configured, mid-sentence: Stripe's methods (STRIPE_PAYMENT_METHODS), else bank transfer. */
export function paymentMethodsPhrase(deps: { config: { stripePaymentMethods: readonly string[] }; payments: { name: string } }): string {
  if (deps.payments.name !== "stripe") return "bankoverførsel";
  const names = deps.config.stripePaymentMethods.map((method) => METHOD_NAMES[method] ?? method);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} eller ${names.at(-1)}` : names[0]!;
}

/** The same at the start of a line ("Kort eller MobilePay"). */
export function paymentMethodsText(deps: Parameters<typeof paymentMethodsPhrase>[0]): string {
  const phrase = paymentMethodsPhrase(deps);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}
