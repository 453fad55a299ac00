// Field values and names as the staff reads them, shared by the admin pages (the change log) and the admin assistant
// page's script: money in minor units of the shop currency, dates and order statuses in Danish, booleans ja/nej, Danish field labels.
import { formatMoney } from "../../core/format.ts";
import { ORDER_STATUS_LABELS } from "./labels.ts";

const NUMBER = new Intl.NumberFormat("da-DK");
const PERCENT = new Intl.NumberFormat("da-DK", { style: "percent", maximumFractionDigits: 1 });
/** Shop times are Copenhagen times, whatever zone the server or the browser runs in. */
const DATE_TIME = new Intl.DateTimeFormat("da-DK", { timeZone: "Europe/Copenhagen", dateStyle: "medium", timeStyle: "short" });
const DATE = new Intl.DateTimeFormat("da-DK", { dateStyle: "medium" });

/** Money fields are integer øre, named `…Dkk` by the tools (`totalDkk`) or `…Oere`. */
const MONEY_KEY = /(Dkk|Oere)$/;
const SHARE_KEY = /(Share|Rate)$/;
/** `status`, `fromStatus`, `toStatus`: an order status is shown by its Danish name (other statuses as they are). */
const STATUS_KEY = /^(status|fromStatus|toStatus)$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type Scalar = string | number | boolean | null;

export function isScalar(value: unknown): value is Scalar {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** Whether a column of this key holds numbers to right-align. */
export function isNumeric(key: string, value: unknown): boolean {
  return typeof value === "number" || (MONEY_KEY.test(key) && typeof value === "string" && /^-?\d+$/.test(value));
}

/** A scalar field as a person reads it: `totalDkk: 123450` → "1.234,50 kr." (in `currency`), an ISO time in Danish, `status: "paid"` → "Betalt", true → "ja". */
export function formatValue(key: string, value: Scalar, currency: string): string {
  if (value === null) return "–";
  if (typeof value === "boolean") return value ? "ja" : "nej";
  if (typeof value === "number") {
    if (MONEY_KEY.test(key)) return formatMoney(value, currency);
    if (SHARE_KEY.test(key) && value >= 0 && value <= 1) return PERCENT.format(value);
    return NUMBER.format(value);
  }
  if (MONEY_KEY.test(key) && /^-?\d+$/.test(value)) return formatMoney(BigInt(value), currency);
  if (STATUS_KEY.test(key) && Object.prototype.hasOwnProperty.call(ORDER_STATUS_LABELS, value)) return ORDER_STATUS_LABELS[value]!;
  if (ISO_DATE_TIME.test(value)) {
    const time = new Date(value);
    if (!Number.isNaN(time.getTime())) return DATE_TIME.format(time);
  }
  const day = ISO_DATE.exec(value);
  if (day) return DATE.format(new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  return value;
}

/** Column and field names the staff reads often, in Danish; any other key is shown as the tool names it. */
const LABELS: Record<string, string> = {
  id: "Id",
  name: "Navn",
  productName: "Produkt",
  slug: "Slug",
  code: "Kode",
  email: "E-mail",
  shippingName: "Modtager",
  status: "Status",
  type: "Type",
  value: "Værdi",
  active: "Aktiv",
  quantity: "Antal",
  stock: "Lager",
  itemCount: "Varer",
  orderCount: "Ordrer",
  usageCount: "Brugt",
  usageLimit: "Maks. brug",
  validUntil: "Gyldig til",
  priceDkk: "Pris",
  subtotalDkk: "Subtotal",
  discountDkk: "Rabat",
  discountCode: "Rabatkode",
  shippingDkk: "Fragt",
  totalDkk: "Total",
  revenueDkk: "Omsætning",
  averageOrderValueDkk: "Gns. ordreværdi",
  newCustomers: "Nye kunder",
  aiGeneratedOrderCount: "Ordrer via AI",
  aiGeneratedRevenueDkk: "Omsætning via AI",
  aiGeneratedShare: "Andel via AI",
  unitPriceDkk: "Stykpris",
  createdAt: "Oprettet",
  updatedAt: "Ændret",
  fromDate: "Fra",
  toDate: "Til",
  description: "Beskrivelse",
  shortDescription: "Kort beskrivelse",
  brand: "Mærke",
  category: "Kategori",
  categoryId: "Kategori",
  categorySlug: "Kategori",
  featured: "Fremhævet",
  returnable: "Kan returneres",
  giftCard: "Gavekort",
  images: "Billeder",
  heroImage: "Hovedbillede",
  attributes: "Egenskaber",
  faq: "Spørgsmål og svar",
  frameColor: "Stelfarve",
  lensColor: "Glasfarve",
  sku: "Varenummer",
  deletedAt: "Slettet",
  title: "Titel",
  body: "Tekst",
  layout: "Layout",
  showInNav: "Vis i menuen",
  navOrder: "Placering i menuen",
  enabled: "Slået til",
  key: "Nøgle",
  percent: "Procent",
  amountDkk: "Beløb",
  refundedDkk: "Refunderet",
  compareAtPriceDkk: "Førpris",
  vatOere: "Heraf moms",
  balanceDkk: "Saldo",
  carrier: "Fragtfirma",
  trackingNumber: "Trackingnummer",
  trackingUrl: "Tracking-link",
  estDeliveryFrom: "Forventet levering fra",
  estDeliveryTo: "Forventet levering til",
  paidAt: "Betalt",
  refundedAt: "Refunderet",
  cancelledAt: "Annulleret",
  cancelReason: "Årsag til annullering",
  paymentMethod: "Betalingsmetode",
  phoneNumber: "Telefon",
  shippingAddress: "Leveringsadresse",
  shippingZip: "Postnummer",
  shippingCity: "By",
  shippingCountry: "Land",
  billingName: "Fakturanavn",
  billingAddress: "Fakturaadresse",
  billingZip: "Fakturapostnummer",
  billingCity: "Fakturaby",
  billingCountry: "Fakturaland",
  reason: "Årsag",
  note: "Note",
  scopes: "Adgange",
  url: "Adresse",
  events: "Hændelser",
  subject: "Emne",
  sendAt: "Sendes",
  channel: "Kanal",
  number: "Ordrenummer",
  confirmationEmailSentAt: "Bekræftelse sendt",
  signingSecret: "Signeringsnøgle",
  webhookUrl: "Webhook-adresse",
  bankName: "Bank",
  regNo: "Reg.nr.",
  accountNo: "Kontonr.",
  iban: "IBAN",
  bic: "BIC (SWIFT)",
  cvr: "CVR-nummer",
  minDays: "Levering tidligst",
  maxDays: "Levering senest",
  price: "Pris",
  freeFrom: "Fri fragt fra",
  pickupPoints: "Pakkeshops",
  methods: "Leveringsmåder",
  returnDays: "Returfrist",
};

export function labelOf(key: string): string {
  return LABELS[key] ?? key;
}
