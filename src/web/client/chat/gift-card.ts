// What the storefront chat shows of a gift card a tool call carries: its last four symbols, never the whole code.

/** The last four symbols of the gift card a checkout call carries, or null (the whole code is not shown again). */
export function giftCardOf(name: string, input: unknown): string | null {
  if (name !== "cart_checkout" || typeof input !== "object" || input === null) return null;
  const code = (input as { giftCardCode?: unknown }).giftCardCode;
  return typeof code === "string" && code.trim() ? code.replace(/[\s-]/g, "").slice(-4).toUpperCase() : null;
}
