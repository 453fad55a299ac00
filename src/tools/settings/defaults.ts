// The shop settings and feature flags as they read before anyone stored them: a section or flag without a row reads as
// its default here (the demo seed stores these too, with a demo bank account).

/** Every settings section's defaults (branding, shipping, contact, policies). */
export const DEFAULT_SETTINGS = {
  branding: { shopName: "Nordlys Optik", tagline: "Briller og solbriller med nordisk lys", logoUrl: null, primaryColor: "#12355b", accentColor: "#f2a541" },
  shipping: {
    flatRateDkk: 4900,
    freeShippingThresholdDkk: 49900,
    carriers: [
      { name: "PostNord", minDays: 1, maxDays: 3 },
      { name: "GLS", minDays: 1, maxDays: 2 },
    ],
  },
  contact: {
    email: "kundeservice@nordlys-optik.dk",
    phone: "+45 70 20 30 40",
    address: "Strøget 12, 1160 København K",
    cvr: "12345678",
    bankAccount: null as null | { bankName: string; regNo: string; accountNo: string; iban: string },
  },
  policies: {
    returns: "Du har 30 dages fuld returret. Varen skal være ubrugt og i original emballage.",
    shipping: "Vi sender med PostNord og GLS. Fri fragt ved køb over 499 kr.",
    privacy: "Vi behandler kun dine oplysninger for at kunne levere din ordre og sletter dem efter 5 år.",
    terms: "Alle priser er i danske kroner inkl. 25 % moms.",
  },
};

/** Every feature flag the shop knows, with its default state. */
export const DEFAULT_FEATURES = [
  { key: "storefront_chat", enabled: true, description: "Chat assistant on the storefront that builds carts." },
  { key: "admin_assistant", enabled: true, description: "Conversational assistant for staff in the admin." },
  { key: "agent_checkout", enabled: false, description: "Checkout by external AI agents (ACP checkout sessions)." },
  { key: "newsletter", enabled: true, description: "Newsletter sign-up and campaigns." },
  { key: "product_reviews", enabled: false, description: "Product reviews on product pages." },
];
