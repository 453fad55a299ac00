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
    methods: [
      { id: "postnord-hjem", carrier: "PostNord", kind: "home" as const, name: "PostNord Hjemmelevering", minDays: 1, maxDays: 3 },
      { id: "postnord-pakkeshop", carrier: "PostNord", kind: "pickup" as const, name: "PostNord Pakkeshop", priceDkk: 3900, minDays: 1, maxDays: 3 },
      { id: "gls-pakkeshop", carrier: "GLS", kind: "pickup" as const, name: "GLS Pakkeshop", priceDkk: 3500, minDays: 1, maxDays: 2 },
    ] as Array<{ id: string; carrier: string; kind: "home" | "pickup"; name: string; priceDkk?: number; minDays: number; maxDays: number }>,
    pickupPoints: [
      { id: "pn-kbh-netto-nansensgade", carrier: "PostNord", name: "Netto Nansensgade", address: "Nansensgade 19", zip: "1366", city: "København K" },
      { id: "pn-kbh-7eleven-vesterbro", carrier: "PostNord", name: "7-Eleven Vesterbrogade", address: "Vesterbrogade 35", zip: "1620", city: "København V" },
      { id: "pn-frb-meny", carrier: "PostNord", name: "Meny Frederiksberg", address: "Gammel Kongevej 120", zip: "1850", city: "Frederiksberg C" },
      { id: "pn-aarhus-foetex", carrier: "PostNord", name: "Føtex Aarhus C", address: "Guldsmedgade 3", zip: "8000", city: "Aarhus C" },
      { id: "pn-odense-rema", carrier: "PostNord", name: "Rema 1000 Odense", address: "Vesterbro 50", zip: "5000", city: "Odense C" },
      { id: "gls-kbh-shell-amager", carrier: "GLS", name: "Shell Amagerbrogade", address: "Amagerbrogade 100", zip: "2300", city: "København S" },
      { id: "gls-kbh-kiosk-noerrebro", carrier: "GLS", name: "Nørrebro Kiosk", address: "Nørrebrogade 45", zip: "2200", city: "København N" },
      { id: "gls-aarhus-spar", carrier: "GLS", name: "Spar Trøjborg", address: "Tordenskjoldsgade 20", zip: "8200", city: "Aarhus N" },
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
    returns: "Du har 14 dages returret fra den dag, du modtager varen. Varen skal være ubrugt og i original emballage.",
    shipping: "Vi sender med PostNord og GLS. Fri fragt ved køb over 499 kr.",
    privacy: "Vi behandler kun dine oplysninger for at kunne levere din ordre og sletter dem efter 5 år.",
    terms: [
      "## Priser og betaling",
      "Alle priser er i danske kroner inkl. 25 % moms. Du betaler med betalingskort eller bankoverførsel på betalingssiden efter bestillingen; et gavekort kan trækkes fra i kassen.",
      "## Levering",
      "Du vælger leveringsmåde i kassen: hjemmelevering eller afhentning i en pakkeshop. Prisen og den forventede leveringstid står ved hver mulighed. Fri fragt ved køb over 499 kr.",
      "## Fortrydelsesret",
      "Du har 14 dages fortrydelsesret efter forbrugeraftaleloven, regnet fra den dag, du modtager varen. Varen skal sendes tilbage ubrugt og i original emballage; du betaler selv returfragten, medmindre varen er fejlbehæftet.",
      "## Reklamation",
      "Du har 2 års reklamationsret efter købeloven. Kontakt kundeservice med ordrenummer og en beskrivelse af fejlen.",
      "## Klage",
      "Kan vi ikke finde en løsning sammen, kan du klage til Center for Klageløsning, Nævnenes Hus, Toldboden 2, 8800 Viborg, via naevneneshus.dk.",
    ].join("\n\n"),
  },
};

/** Every feature flag the shop knows, with its default state. */
export const DEFAULT_FEATURES = [
  { key: "storefront_chat", enabled: true, description: "Chat assistant on the storefront that builds carts." },
  { key: "admin_assistant", enabled: true, description: "Conversational assistant for staff in the admin." },
  { key: "newsletter", enabled: true, description: "Newsletter sign-up and campaigns." },
  { key: "product_reviews", enabled: false, description: "Product reviews on product pages." },
];
