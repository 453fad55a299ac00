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
    // What the shop really keeps, and for how long (GDPR art. 13); the owner edits it under Indstillinger → Vilkår og politikker.
    privacy: [
      "Her kan du læse, hvilke oplysninger vi gemmer om dig, hvorfor og hvor længe. Den dataansvarlige er butikken, med navn, adresse og CVR-nummer nederst på siden.",
      "## Ordrer og adresser",
      "Når du bestiller, gemmer vi dit navn, din e-mail, dit telefonnummer, leverings- og fakturaadresse, hvad du har købt, og hvordan du har betalt. Vi bruger dem til at levere, til returneringer og reklamationer og til regnskabet. Ordrer og bilag gemmer vi i 5 år efter regnskabsårets udgang, som bogføringsloven kræver. Adresser, du gemmer i din adressebog, ligger der, til du sletter dem.",
      "## Chat med vores AI-assistent",
      "Skriver du med chatten, gemmer vi samtalen sammen med din session, så du kan fortsætte den senere, og så vi kan hjælpe, hvis noget går galt. Beskederne sendes til vores leverandør af sprogmodellen for at blive besvaret. Vi sletter samtalerne, når du beder om det.",
      "## Login-koder",
      "Logger du ind med en kode på e-mail, gemmer vi kun en krypteret udgave af koden. Den gælder i 10 minutter og kan kun bruges én gang.",
      "## Cookies",
      "Vi bruger kun nødvendige cookies: shop_session husker din kurv og dit login i op til et år. Chatten husker i din browser, hvilken samtale du var i gang med. Vi bruger ingen cookies til statistik eller markedsføring.",
      "## Betaling",
      "Betaler du med kort, sker det hos vores betalingsudbyder; vi ser aldrig dit kortnummer.",
      "## Dine rettigheder",
      "Du kan få indsigt i de oplysninger, vi har om dig, og bede os rette eller slette dem (så vidt loven ikke kræver, at vi gemmer dem) ved at skrive til kundeservice. Du kan klage til Datatilsynet, datatilsynet.dk.",
    ].join("\n\n"),
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
