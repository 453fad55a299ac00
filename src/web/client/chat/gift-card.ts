// What the storefront chat shows of a gift card a tool call carries: its last four symbols, never the whole code.

/** The last four symbols of the gift card a checkout call carries, or null (the whole code is not shown again). */
export function giftCardOf(name: string, input: unknown): string | null {
  if (name !== "cart_checkout" || typeof input !== "object" || input === null) return null;
  const code = (input as { giftCardCode?: unknown }).giftCardCode;
  return typeof code === "string" && code.trim() ? code.replace(/[\s-]/g, "").slice(-4).toUpperCase() : null;
}

/** Where a cancel or return call sends the money, in Danish: as paid, as store credit, or onto the card …XXXX it names. */
export function refundText(input: unknown): string {
  const to = typeof input === "object" && input !== null ? (input as { refundTo?: unknown }).refundTo : undefined;
  if (to === "store_credit") return "Pengene kommer tilbage som et tilgodebevis (gavekort).";
  if (typeof to === "string" && to.trim() && to !== "original") return `Pengene sættes ind på dit gavekort …${to.replace(/[\s-]/g, "").slice(-4).toUpperCase()}.`;
  return "Pengene går tilbage til betalingsmåden.";
}
