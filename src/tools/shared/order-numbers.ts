// Order numbers as people read and type them: "#1001" on pages and in mails, "1001" or "#1001" in a search box.

/** How an order is named to a person. */
export function orderRef(number: number): string {
  return `#${number}`;
}

/** The order number in what a person typed ("1001", "#1001", "# 1001"), or null when it is not one. */
export function parseOrderRef(text: string): number | null {
  const match = /^#?\s*(\d{1,10})$/.exec(text.trim());
  const number = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(number) && number >= 1 && number <= 2_147_483_647 ? number : null;
}
