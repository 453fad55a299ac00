// The slug derived from a product name (server fallback and the admin script's live fill share it).
import { describe, expect, it } from "vitest";
import { DERIVED_SLUG_MAX, slugCandidate, slugFromName } from "../../../src/web/admin/slug.ts";

describe("slugFromName", () => {
  it("spells out æ, ø, å, strips other accents and joins words with single hyphens", () => {
    expect(slugFromName("Ærø Solbrille – Brun/Grøn")).toBe("aeroe-solbrille-brun-groen");
    expect(slugFromName("  Café Crème Über  ")).toBe("cafe-creme-uber");
    expect(slugFromName("ÅBEN -- Båd!!")).toBe("aaben-baad");
    expect(slugFromName("Ray-Ban RB3025 (58 mm)")).toBe("ray-ban-rb3025-58-mm");
  });

  it("answers empty for a name without letters or digits, and never more than the maximum", () => {
    expect(slugFromName("!!! ???")).toBe("");
    const long = slugFromName("Meget ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(DERIVED_SLUG_MAX);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("numbers later choices -2, -3 … within the maximum", () => {
    expect(slugCandidate("panto", 1)).toBe("panto");
    expect(slugCandidate("panto", 2)).toBe("panto-2");
    const base = "a".repeat(DERIVED_SLUG_MAX);
    expect(slugCandidate(base, 13)).toBe(`${"a".repeat(DERIVED_SLUG_MAX - 3)}-13`);
  });
});
