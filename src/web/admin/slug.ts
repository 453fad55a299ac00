// A product's URL slug from its name, the same on the server (an empty slug field) and in the admin script (live fill).

/** The longest derived slug; the admin routes take slugs of up to 200 characters, shorter reads better in a link. */
export const DERIVED_SLUG_MAX = 80;

const DANISH: Record<string, string> = { æ: "ae", ø: "oe", å: "aa" };

/** "Ærø Solbrille – Brun/Grøn" → "aeroe-solbrille-brun-groen": Danish letters spelled out, other accents dropped. */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[æøå]/g, (letter) => DANISH[letter] ?? letter)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, DERIVED_SLUG_MAX)
    .replace(/^-+|-+$/g, "");
}

/** The n-th choice for a name whose slug is taken: slug, slug-2, slug-3 … (the suffix fits within the maximum). */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, DERIVED_SLUG_MAX - suffix.length).replace(/-+$/, "")}${suffix}`;
}
