// Reading admin form fields into tool inputs: kroner to øre, "key: value" lines, question/answer blocks, local
// Copenhagen times to UTC. A field that cannot be read becomes a 400 naming the field, like a schema error.
import { Invalid } from "../../core/errors.ts";

const ZONE = "Europe/Copenhagen";

function bad(path: string, message: string): Invalid {
  return new Invalid(`${path}: ${message}`, [{ path, message }]);
}

/** "1299", "1299.5" or "1.299,50" kroner → integer øre; "" → undefined. */
export function kroner(value: string, path: string): number | undefined {
  const text = value.trim().replace(/\s|kr\.?$/gi, "");
  if (!text) return undefined;
  const normalised = /,\d{1,2}$/.test(text) ? text.replace(/\./g, "").replace(",", ".") : text.replace(/,/g, "");
  if (!/^-?\d+(\.\d{1,2})?$/.test(normalised)) throw bad(path, "Skriv et beløb i kroner, fx 1299 eller 1299,50");
  const oere = Math.round(Number(normalised) * 100);
  if (!Number.isSafeInteger(oere)) throw bad(path, "Beløbet er for stort");
  return oere;
}

/** A whole number ("" → undefined). */
export function integer(value: string, path: string): number | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw bad(path, "Skriv et helt tal");
  return Number(text);
}

/** Optional text: trimmed, "" → undefined. */
export function optional(value: string): string | undefined {
  const text = value.trim();
  return text ? text : undefined;
}

/** "key: value" per line → a string map (blank lines ignored). */
export function keyValues(value: string, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [index, line] of value.replace(/\r\n?/g, "\n").split("\n").entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon <= 0 || !line.slice(colon + 1).trim()) throw bad(path, `Linje ${index + 1} skal have formen "navn: værdi"`);
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

export function keyValuesText(map: Record<string, string> | null | undefined): string {
  return Object.entries(map ?? {}).map(([key, value]) => `${key}: ${value}`).join("\n");
}

/** Blocks separated by blank lines; the first line of a block is its head, the rest its text. */
export function blocks(value: string, path: string): Array<{ head: string; text: string }> {
  return value
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block, index) => {
      const [head, ...rest] = block.split("\n");
      const text = rest.join("\n").trim();
      if (!text) throw bad(path, `Blok ${index + 1} skal have en første linje og teksten under den`);
      return { head: head!.trim(), text };
    });
}

export function blocksText(items: Array<{ head: string; text: string }>): string {
  return items.map((item) => `${item.head}\n${item.text}`).join("\n\n");
}

/** The offset of Copenhagen from UTC at an instant, in minutes (60 in winter, 120 in summer). */
function offsetMinutes(at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: ZONE, timeZoneName: "longOffset" }).formatToParts(at);
  const name = parts.find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/** A `datetime-local` value read as Copenhagen time → ISO 8601 UTC ("" → undefined). */
export function localDateTime(value: string, path: string): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw bad(path, "Vælg en dato og et klokkeslæt");
  const asUtc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]));
  if (Number.isNaN(asUtc)) throw bad(path, "Vælg en dato og et klokkeslæt");
  const guess = asUtc - offsetMinutes(new Date(asUtc)) * 60_000;
  return new Date(asUtc - offsetMinutes(new Date(guess)) * 60_000).toISOString();
}

/** An ISO instant as a `datetime-local` value in Copenhagen time. */
export function toLocalDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const at = new Date(iso);
  const local = new Date(at.getTime() + offsetMinutes(at) * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A Danish calendar day ("YYYY-MM-DD") of an instant. */
export function copenhagenDate(at: Date): string {
  return new Intl.DateTimeFormat("sv-SE", { timeZone: ZONE }).format(at);
}

const DISPLAY = new Intl.DateTimeFormat("da-DK", { timeZone: ZONE, dateStyle: "medium", timeStyle: "short" });

/** An ISO instant for people: "23. nov. 2026 10.15" (Copenhagen time). */
export function when(iso: string | null | undefined): string {
  return iso ? DISPLAY.format(new Date(iso)) : "—";
}

/**
 * A refund destination from the "Refundér til" select and its card-code field: "asked" or "" → undefined (the tool's
 * default: as paid, or as a return asked), original / store_credit as they are, gift_card → the code (400 without one).
 */
export function refundDestination(choice: string, code: string, path = "refundCard"): string | undefined {
  if (choice === "original" || choice === "store_credit") return choice;
  if (choice !== "gift_card") return undefined;
  const typed = code.trim();
  if (!typed) throw bad(path, "Skriv gavekortets kode");
  return typed;
}

