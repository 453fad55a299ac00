// Text the shop writes everywhere (pages, e-mails): HTML escaping and money in the shop currency, written the Danish way.

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const SPECIAL = /[&<>"']/;

/** Escapes text for HTML content and quoted attribute values; every dynamic value goes through it. */
export function escapeHtml(value: string | number): string {
  const text = String(value);
  // Most values need nothing: testing first spares the replace (pages escape hundreds of values each).
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ENTITIES[char]!) : text;
}

const FORMATS = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: string, whole = false): Intl.NumberFormat {
  const key = `${currency}${whole ? " whole" : ""}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.NumberFormat("da-DK", { style: "currency", currency, ...(whole ? { minimumFractionDigits: 0 } : {}) });
    FORMATS.set(key, format);
  }
  return format;
}

/** How many decimals the currency's minor unit has (2 for DKK and USD, 0 for JPY). */
function minorDigits(currency: string): number {
  return currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * Integer minor units of a currency as Danish text: 123450 DKK → "1.234,50 kr.", USD → "1.234,50 US$", EUR → "1.234,50 €";
 * `whole` leaves out zero decimals, for prose ("Fri fragt over 499 kr."). The amount goes to Intl as an exact decimal
 * string (no float rounding); the space before the symbol is a plain one.
 */
export function formatMoney(minor: number | bigint, currency: string, options: { whole?: boolean } = {}): string {
  const decimal = decimalAmount(minor, currency);
  const whole = options.whole === true && /^-?\d+(\.0+)?$/.test(decimal);
  return currencyFormat(currency, whole).format(decimal as `${number}`).replace(/\u00a0/g, " ");
}

/** Integer minor units as the decimal amount machines read (schema.org, Open Graph): 123450 DKK → "1234.50". */
export function decimalAmount(minor: number | bigint, currency: string): string {
  const value = typeof minor === "bigint" ? minor : BigInt(Math.trunc(Number(minor)));
  const digits = minorDigits(currency);
  const abs = value < 0n ? -value : value;
  const scale = 10n ** BigInt(digits);
  return `${value < 0n ? "-" : ""}${abs / scale}${digits ? `.${String(abs % scale).padStart(digits, "0")}` : ""}`;
}

/** A count with the right Danish word: count(1, "vare", "varer") → "1 vare", count(1200, …) → "1.200 varer". */
export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString("da-DK")} ${n === 1 ? one : many}`;
}
