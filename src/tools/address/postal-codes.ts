// Danish postal codes (PostNord table in dk-postal-codes.csv, loaded once on first use) and address checks.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface PostalCode {
  zip: string;
  city: string;
}

const CSV_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), "dk-postal-codes.csv");

let table: { list: PostalCode[]; byZip: Map<string, PostalCode> } | undefined;

/** Splits CSV text into rows of fields (RFC 4180: quoted fields, doubled quotes, commas and newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ""));
}

function load(): { list: PostalCode[]; byZip: Map<string, PostalCode> } {
  if (table) return table;
  const [header = [], ...rows] = parseCsv(fs.readFileSync(CSV_PATH, "utf8").replace(/^\uFEFF/, ""));
  const zipAt = header.indexOf("postal_code");
  const cityAt = header.indexOf("city");
  const list = rows.map((r) => ({ zip: (r[zipAt] ?? "").trim(), city: (r[cityAt] ?? "").trim() })).filter((p) => p.zip && p.city);
  table = { list, byZip: new Map(list.map((p) => [p.zip, p])) };
  return table;
}

/** All postal codes, in table order (ascending zip). */
export function postalCodes(): readonly PostalCode[] {
  return load().list;
}

export function lookupPostalCode(zip: string): PostalCode | null {
  return load().byZip.get(zip.trim()) ?? null;
}

/** Lower-case, collapsed spaces: comparison key for city names. */
export function cityKey(city: string): string {
  return city.trim().replace(/\s+/g, " ").toLocaleLowerCase("da-DK");
}

export interface AddressCheck {
  valid: boolean;
  normalized: { address: string; zip: string; city: string } | null;
  problems: string[];
}

/** Checks a Danish street address: non-empty street, known 4-digit postal code, city matching it (case/space-insensitive). */
export function validateAddress(input: { address: string; zip: string; city: string }): AddressCheck {
  const problems: string[] = [];
  const address = input.address.trim().replace(/\s+/g, " ");
  const zip = input.zip.trim();
  if (address.length < 2) problems.push("The street address is empty or too short.");
  const postal = /^\d{4}$/.test(zip) ? lookupPostalCode(zip) : null;
  if (!/^\d{4}$/.test(zip)) problems.push(`The postal code "${zip}" is not 4 digits.`);
  else if (!postal) problems.push(`The postal code ${zip} does not exist in Denmark.`);
  else if (cityKey(postal.city) !== cityKey(input.city)) {
    problems.push(`The postal code ${zip} belongs to ${postal.city}, not "${input.city.trim()}".`);
  }
  const valid = problems.length === 0;
  return { valid, normalized: valid && postal ? { address, zip, city: postal.city } : null, problems };
}
