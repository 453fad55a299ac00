// Danish words for states the staff sees, shared by the server-rendered admin pages and the assistant page's script.

/** Order statuses as the staff reads them. */
export const ORDER_STATUS_LABELS: Record<string, string> = {
  pending_payment: "Afventer betaling",
  pending: "Afventer",
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
