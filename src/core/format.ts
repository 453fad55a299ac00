// Text the shop writes everywhere (pages, e-mails): HTML escaping and money in Danish kroner.

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const SPECIAL = /[&<>"']/;

/** Escapes text for HTML content and quoted attribute values; every dynamic value goes through it. */
export function escapeHtml(value: string | number): string {
  const text = String(value);
  // Most values need nothing: testing first spares the replace (pages escape hundreds of values each).
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ENTITIES[char]!) : text;
}

/** Integer øre as Danish kroner: 123450 → "1.234,50 kr.". */
export function formatKr(oere: number | bigint): string {
  const value = Number(oere);
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(value));
  const kroner = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}${kroner},${String(abs % 100).padStart(2, "0")} kr.`;
}

/** A count with the right Danish word: count(1, "vare", "varer") → "1 vare", count(1200, …) → "1.200 varer". */
export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString("da-DK")} ${n === 1 ? one : many}`;
}
