// Danish words for states the staff sees, shared by the server-rendered admin pages and the assistant page's script.

/** Order statuses as the staff reads them. */
export const ORDER_STATUS_LABELS: Record<string, string> = {
  pending_payment: "Afventer betaling",
  pending: "Modtaget – afventer behandling",
  paid: "Betalt",
  flagged_review: "Til gennemsyn",
  processing: "Behandles",
  shipped: "Afsendt",
  delivered: "Leveret",
  completed: "Gennemført",
  cancelled: "Annulleret",
  refunded: "Refunderet",
  partial_refund: "Delvist refunderet",
  disputed: "Indsigelse",
};

/** What each status means, for a tooltip on the status tag and the legend on the orders page. */
export const ORDER_STATUS_HINTS: Record<string, string> = {
  pending_payment: "Kunden er sendt til betaling, men betalingen er ikke gennemført endnu. Send ikke varerne.",
  pending: "En medarbejder har godkendt ordren uden betaling på forhånd (fx aftalt faktura); den venter på at blive behandlet.",
  paid: "Betalingen er modtaget; ordren er klar til at blive pakket.",
  flagged_review: "Ordren er sat til manuel kontrol, før den må behandles.",
  processing: "Ordren pakkes.",
  shipped: "Pakken er sendt.",
  delivered: "Pakken er leveret.",
  completed: "Ordren er afsluttet.",
  cancelled: "Ordren er annulleret.",
  refunded: "Hele beløbet er refunderet.",
  partial_refund: "En del af beløbet er refunderet.",
  disputed: "Kunden har gjort indsigelse mod betalingen hos sin bank.",
};
