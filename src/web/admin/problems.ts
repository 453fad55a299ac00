// A tool's refusal as the staff reads it: a Danish sentence per refusal code, field errors under Danish field names
// with Danish messages, a general Danish text otherwise. The API keeps its English problem texts; only the admin's
// pages translate them here.
import { ToolError, type FieldError } from "../../core/errors.ts";
import { labelOf } from "./values.ts";

const REFUSALS: Record<string, string> = {
  illegal_transition: "Det statusskift er ikke muligt fra ordrens nuværende status.",
  already_shipped: "Ordren er allerede sendt, så det kan ikke længere ændres.",
  refund_failed: "Betalingen kunne ikke refunderes automatisk hos betalingsudbyderen. Prøv igen, eller refundér manuelt.",
  refund_exceeds_paid: "Beløbet er større end det, der er tilbage at refundere.",
  refund_task_done: "Refusionen er allerede markeret som udbetalt.",
  order_not_paid: "Ordren er ikke betalt endnu; bekræftelsen sendes, når den er.",
  order_not_unpaid: "Ordren er allerede betalt, så den kan ikke betales med gavekort.",
  amount_too_large: "Beløbet er større, end butikken kan håndtere.",
  amount_exceeds_outstanding: "Beløbet er større end det, der mangler at blive betalt.",
  partial_payment_unsupported: "Ordren betales med kort: et gavekort kan kun betale hele restbeløbet.",
  payment_provider_unavailable: "Ordren har en åben betaling hos betalingsudbyderen, så beløbet kan ikke ændres nu.",
  payment_in_progress: "Kunden har lige betalt det gamle beløb. Vent til betalingen er registreret, og ret så ordren.",
  payment_required: "Ordrens total stiger: vælg, hvordan forskellen skal opkræves.",
  payment_outstanding: "Ordren kan ikke sendes, før restbeløbet er betalt.",
  insufficient_balance: "Gavekortets saldo dækker ikke beløbet.",
  card_not_reusable: "Kundens kort kan ikke trækkes igen. Send et betalingslink i stedet.",
  nothing_outstanding: "Der er intet restbeløb på ordren.",
  not_paid: "Ordren er ikke betalt endnu.",
  last_line: "Ordren skal have mindst én vare. Annullér den i stedet.",
  unknown_delivery_method: "Den leveringsmåde findes ikke. Vælg en fra listen.",
  pickup_point_required: "Vælg en pakkeshop til leveringsmåden.",
  invalid_pickup_point: "Pakkeshoppen hører ikke til leveringsmådens fragtfirma.",
  invalid_variant: "Den variant findes ikke eller sælges ikke længere.",
  out_of_stock: "Der er ikke nok på lager.",
  insufficient_stock: "Der er ikke nok på lager.",
  stock_limit: "Lagerantallet bliver for stort.",
  invalid_delivery_window: "Forventet levering skal slutte efter, den begynder.",
  invalid_address: "Adressen kunne ikke genkendes. Tjek postnummer og by.",
  cart_empty: "Der er ingen varer at bestille.",
  discount_unavailable: "Rabatkoden kan ikke bruges (udløbet, brugt op eller slået fra).",
  variant_required: "Vælg en variant.",
  changed_since: "Emnet er ændret senere. Fortryd den senere ændring først.",
  already_reverted: "Ændringen er allerede fortrudt.",
  not_revertible: "Denne ændring kan ikke fortrydes.",
  has_dependents: "Andre data henviser stadig til det, så det kan ikke slettes eller ændres sådan.",
  missing_reference: "Noget, det henviser til, findes ikke længere, så det kan ikke genskabes.",
  category_not_empty: "Kategorien har stadig produkter. Flyt eller slet dem først.",
  percent_out_of_range: "En procentrabat skal være mellem 1 og 100.",
  valid_until_in_past: "Slutdatoen skal ligge i fremtiden. Slå koden fra for at stoppe den nu.",
  usage_limit_below_count: "Koden er allerede brugt flere gange end den nye grænse.",
  own_account: "Du kan ikke slette din egen bruger. Bed en anden medarbejder om det.",
  last_owner: "Det er den eneste medarbejder med fuld adgang. Giv en anden fuld adgang først.",
  quantity_exceeds_order: "Der er ikke så mange af varen tilbage at returnere.",
  not_returnable: "Varen er lavet til kunden og har ingen fortrydelsesret; en reklamation er stadig mulig.",
  not_shipped: "Ordren er ikke sendt endnu. Annullér den i stedet.",
  order_closed: "Ordren er lukket og kan ikke returneres.",
  return_window_closed: "Fristen for at returnere er udløbet.",
  invalid_exchange_variant: "Der kan kun byttes til en anden variant af samme produkt.",
  ticket_closed: "Supportsagen er lukket.",
  email_required: "Skriv den e-mailadresse, der skal svares til.",
  campaign_already_sent: "Kampagnen er sendt og kan ikke længere planlægges om.",
  campaign_not_draft: "Kun kladder kan rettes.",
  send_at_in_past: "Afsendelsestidspunktet skal ligge i fremtiden.",
  feature_disabled: "Funktionen er slået fra i butikken.",
  too_many_products: "For mange produkter passer. Gør udvalget mindre.",
  price_out_of_range: "Ændringen ville give en eller flere priser under 0,01 kr. eller over maksimum.",
  receiver_not_allowed: "Webhook-adressen skal kunne nås på en offentlig adresse.",
  delivery_pending: "Leveringen venter stadig på næste forsøg og skal ikke sendes igen.",
  giftcard_insufficient_balance: "Gavekortets saldo er for lille.",
  giftcard_expired: "Gavekortet er udløbet.",
  shop_not_empty: "Butikken har allerede et katalog.",
  currency_locked: "Butikken har ordrer i den nuværende valuta, så valutaen kan ikke ændres: priserne ville skifte valuta uden at skifte beløb.",
  unknown_product: "Et af produkterne findes ikke (længere). Tjek produkt-id'erne.",
  payment_declined: "Betalingen blev afvist.",
  rate_limited: "For mange forsøg. Vent lidt, og prøv igen.",
};

const BY_STATUS: Record<number, string> = {
  400: "Oplysningerne kunne ikke bruges. Tjek felterne.",
  403: "Din bruger har ikke adgang til det.",
  404: "Det findes ikke (længere).",
  409: "Det findes allerede. Vælg en anden værdi.",
  413: "Der er for meget data.",
  422: "Butikkens regler tillader det ikke.",
  429: "For mange forsøg. Vent lidt, og prøv igen.",
};

/** English texts of refusals without their own code (400, 403, 409), by what they say. */
const MESSAGES: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/is not an e-mail address/, () => "Det er ikke en gyldig e-mailadresse."],
  [/password needs at least (\d+)/, (m) => `Adgangskoden skal have mindst ${m[1]} tegn.`],
  [/password may have at most (\d+)/, (m) => `Adgangskoden må højst have ${m[1]} tegn.`],
  [/staff user with the e-mail address .* already/, () => "Der er allerede en medarbejder med den e-mailadresse."],
  [/slug "[^"]*" is already used|with slug "[^"]*" already exists/, () => "Adressen (slug) er allerede i brug. Vælg en anden."],
  [/discount code \S+ already exists/, () => "Rabatkoden findes allerede."],
  [/needs the scope "([^"]+)"/, (m) => `Din bruger mangler adgangen ${m[1]}.`],
  [/scopes you do not have yourself: (.*)\.$/, (m) => `Du kan ikke give adgange, du ikke selv har: ${m[1]}.`],
  [/The form was sent from another site/, () => "Formularen blev sendt fra et andet websted."],
  [/The form has expired/, () => "Formularen er udløbet. Genindlæs siden, og prøv igen."],
];

const FALLBACK = "Det kunne ikke lade sig gøre. Prøv igen.";

/** The messages zod and the tools give a field, in Danish; a message already written in Danish (the admin's own form readers) is kept. */
const FIELD_MESSAGES: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/expected \w+, received undefined|^Required$/i, () => "skal udfyldes"],
  [/Too small: expected string to have >=1 characters/, () => "skal udfyldes"],
  [/Too small: expected string to have >=(\d+) characters|needs at least (\d+) characters/, (m) => `skal have mindst ${m[1] ?? m[2]} tegn`],
  [/Visible ASCII only/, () => "må kun have synlige tegn uden mellemrum"],
  [/Too big: expected string to have <=(\d+) characters|at most (\d+) characters/, (m) => `må højst have ${m[1] ?? m[2]} tegn`],
  [/needs a name/, () => "skal udfyldes"],
  [/postal codes? (are|is) 4 digits/i, () => "skal være 4 cifre"],
  [/8 to 20 digits/, () => "skal være 8-20 cifre, evt. med + foran"],
  [/Use lowercase letters, digits and hyphens only/, () => "må kun have små bogstaver, tal og bindestreg"],
  [/Use #rrggbb/, () => "skal skrives som #rrggbb"],
  [/At least the 14 days of the right of withdrawal/, () => "skal være mindst 14 (fortrydelsesretten)"],
  [/maxDays must be at least minDays/, () => "skal være mindst lige så mange dage som tidligst"],
  [/registration number is 4 digits/, () => "skal være 4 cifre"],
  [/account number is 4 to 10 digits/, () => "skal være 4-10 cifre"],
  [/CVR number is 8 digits/, () => "skal være 8 cifre"],
  [/Write the IBAN in capitals/, () => "skal være et IBAN: landekode, 2 kontrolcifre og kontonummeret, fx DK5000400440116243"],
  [/IBAN's check digits do not match/, () => "passer ikke (kontrolcifrene stemmer ikke); tjek nummeret"],
  [/Write the BIC/, () => "skal være 8 eller 11 tegn, fx DABADKKK"],
  [/Not an e-mail address/, () => "skal være en gyldig e-mailadresse"],
  [/ISO 3166-1 alpha-2/, () => "skal være en landekode på to bogstaver, fx DK"],
  [/ISO 4217/, () => "skal være en valutakode på tre store bogstaver, fx DKK"],
  [/ids must be unique/, () => "id'et er allerede brugt i en anden række"],
  [/One rate per country and service level/, () => "landet har allerede en pris på det niveau"],
  [/Give minSubtotal or productIds/, () => "skal have et beløb eller produkter"],
  [/Too small: expected array to have >=(\d+) items/, (m) => `skal have mindst ${m[1]}`],
  [/Too big: expected array to have <=(\d+) items/, (m) => `må højst have ${m[1]}`],
  [/Too small: expected number to be >=?(-?\d+)/, (m) => `skal være mindst ${m[1]}`],
  [/Too big: expected number to be <=?(-?\d+)/, (m) => `må højst være ${m[1]}`],
  [/expected int/, () => "skal være et helt tal"],
  [/expected number/, () => "skal være et tal"],
  [/expected boolean/, () => "skal være ja eller nej"],
  [/Invalid option|Invalid enum/, () => "vælg en af mulighederne"],
  [/Invalid URL/, () => "skal være en gyldig adresse (https://…)"],
  [/Invalid email/, () => "skal være en gyldig e-mailadresse"],
  [/Invalid ISO datetime|Invalid ISO date|datetime/, () => "skal være en gyldig dato"],
  [/must match pattern|Invalid string/, () => "har ikke det rigtige format"],
  [/Unknown field|Unrecognized key/, () => "kendes ikke"],
  [/After toDate|Must not be after toDate/, () => "må ikke ligge efter slutdatoen"],
];

/** Letters only Danish has, or a word only the admin's own Danish messages use: such a message is shown as it is. */
const DANISH = /[æøåÆØÅ]|\b(Skriv|Vælg|Linje|Blok|skal|kan|er|ikke|allerede|Prisen|Lageret)\b/;

export function fieldMessage(message: string): string {
  if (DANISH.test(message)) return message;
  for (const [pattern, text] of FIELD_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return text(match);
  }
  return "er ikke gyldig";
}

/** A field path as the staff knows it: the last named part in Danish ("patch.priceDkk" → "Pris"; "faq.0.q" → "faq"). */
export function fieldName(path: string): string {
  const parts = path.split(".").filter((part) => part !== "patch" && !/^\d+$/.test(part));
  const last = parts.at(-1) ?? path;
  return last === "(root)" ? "Formularen" : labelOf(last);
}

/** The field errors in Danish, one per field ("Pris: skal være mindst 1"). */
function fieldTexts(errors: FieldError[] | undefined): string[] {
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const error of errors ?? []) {
    const text = `${fieldName(error.path)}: ${fieldMessage(error.message)}`;
    if (!seen.has(text)) texts.push(text);
    seen.add(text);
  }
  return texts;
}

/** A tool error as one Danish sentence for staff, with the fields it names. */
export function problemText(error: ToolError): string {
  // Written in Danish by the admin's own pages (their checks before a tool runs): said as it is, with its fields.
  if (error.status < 500 && DANISH.test(error.message)) {
    // The form readers write "path: message" and name the same field again: say it once, under its Danish name.
    const fields = (error.errors ?? []).filter((item) => !error.message.includes(item.message)).map((item) => `${fieldName(item.path)}: ${item.message}`);
    const message = error.message.replace(/^([\w.]+): /, (_whole, path: string) => `${fieldName(path)}: `);
    return [message, ...fields].join(" ");
  }
  const known = REFUSALS[error.code];
  if (known) return known;
  for (const [pattern, text] of MESSAGES) {
    const match = pattern.exec(error.message);
    if (match) return text(match);
  }
  const fields = fieldTexts(error.errors);
  if (error.status === 400 && fields.length) return `Tjek felterne: ${fields.join("; ")}.`;
  return BY_STATUS[error.status] ?? FALLBACK;
}
