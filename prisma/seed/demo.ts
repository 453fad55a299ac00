// The demo shop: "Nordlys Optik", a Danish eyewear shop (80 products in 7 categories, settings, pages, services, codes).
import type { PrismaClient } from "../../src/generated/prisma/client.ts";
import { DEFAULT_FEATURES, DEFAULT_SETTINGS } from "../../src/tools/settings/defaults.ts";
import { seedHistory } from "./history.ts";

type Db = Pick<
  PrismaClient,
  | "category" | "product" | "productImage" | "productVariant" | "setting" | "featureFlag" | "page" | "serviceOffering" | "discount"
  | "customer" | "order" | "orderStatusChange" | "subscriber" | "campaign" | "storefrontSession" | "cart" | "cartItem" | "auditEntry" | "apiKey" | "webhookEndpoint" | "outboxEvent" | "outboxAttempt" | "giftCard" | "supportTicket" | "returnRequest" | "refundTask" | "adminUser" | "staffPasswordToken"
>;

export const DEMO_CATEGORIES = [
  { slug: "solbriller", name: "Solbriller", description: "Solbriller med UV400-beskyttelse til by, strand og bjerge." },
  { slug: "briller", name: "Briller", description: "Brillestel til styrkeglas, klassiske og moderne former." },
  { slug: "sportsbriller", name: "Sportsbriller", description: "Lette, slagfaste briller til løb, cykling og ski." },
  { slug: "boernebriller", name: "Børnebriller", description: "Fleksible og robuste stel til børn." },
  { slug: "blaalysbriller", name: "Blålysbriller", description: "Briller med blåt-lys-filter til skærmarbejde." },
  { slug: "kontaktlinser", name: "Kontaktlinser", description: "Dags- og månedslinser samt plejemidler." },
  { slug: "tilbehoer", name: "Tilbehør", description: "Etuier, pudseklude, kæder og rensespray." },
] as const;

const BRANDS = ["Nordlys", "Ray-Ban", "Oakley", "Lindberg", "Ørgreen", "Prada", "Persol", "Tom Ford", "Vogue", "Gucci"];
/** Brands with a children's line; a children's frame of another brand is the house brand's. */
const KIDS_BRANDS = new Set(["Nordlys", "Ray-Ban", "Oakley", "Lindberg"]);
const FRAME_COLORS = ["sort", "skildpadde", "guld", "sølv", "transparent", "blå", "rød", "grøn", "hvid", "brun"];
const LENS_COLORS = ["grå", "grøn", "brun", "blå spejl", "gul", "klar", "rosa", "polariseret grå"];
/** A lens colour as Danish writes "… glas" after it. */
const LENS_GLASS: Record<string, string> = {
  grå: "grå glas", grøn: "grønne glas", brun: "brune glas", "blå spejl": "blå spejlglas", gul: "gule glas", klar: "klare glas", rosa: "rosa glas", "polariseret grå": "polariserede grå glas",
};
const SHAPES = ["Aviator", "Wayfarer", "Rund", "Cat-eye", "Kvadratisk", "Panto", "Browline", "Oversize", "Sport Wrap", "Clubmaster"];
const STYLES = ["Classic", "Slim", "Bold", "Air", "Street", "Coast", "Fjord", "Vinter", "Sommer", "Studio"];
const MATERIALS = ["acetat", "titanium", "metal", "nylon"];
const ACCESSORIES = {
  Etui: { attributes: { type: "etui", material: "hård skal med blødt for" }, text: "Et fast brilleetui med blødt for, der beskytter brillerne i tasken. Passer til de fleste stel." },
  Pudseklud: { attributes: { type: "pudseklud", material: "mikrofiber", size: "15 × 18 cm" }, text: "En blød mikrofiberklud, der fjerner fedt og fingeraftryk uden at ridse glassene. Kan vaskes ved 40 grader." },
  Brillekæde: { attributes: { type: "brillekæde", material: "forgyldt metal", length: "70 cm" }, text: "En let brillekæde, så brillerne altid er lige ved hånden. Passer til de fleste stel." },
  Rensespray: { attributes: { type: "rensespray", volume: "30 ml" }, text: "Alkoholfri rensespray til alle glas, også med antirefleks- og blålysbehandling." },
} as const;
const LENS_TYPES = {
  Daily: { wear: "Dagslinse", pack: "30 stk.", use: "Bruges én dag og smides ud; ingen rensevæske." },
  Monthly: { wear: "Månedslinse", pack: "6 stk.", use: "Bruges i op til en måned med daglig rens i linsevæske." },
  Toric: { wear: "Torisk månedslinse", pack: "6 stk.", use: "Retter bygningsfejl (astigmatisme); fremstilles efter din recept og kan derfor ikke fortrydes." },
  Multifocal: { wear: "Multifokal månedslinse", pack: "6 stk.", use: "Skarpt syn på både læse- og afstand, til dig over 40." },
} as const;

/** A small deterministic PRNG so the demo shop is the same on every machine. */
function rng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export interface DemoProduct {
  slug: string;
  name: string;
  brand: string | null;
  description: string;
  priceDkk: bigint;
  stock: bigint;
  featured: boolean;
  /** False for goods made to the shopper's prescription (toric contact lenses): no right of withdrawal. */
  returnable: boolean;
  frameColor: string | null;
  lensColor: string | null;
  categorySlug: string;
  images: string[];
  deleted: boolean;
  attributes: Record<string, string>;
  answerSummary: string | null;
  faq: Array<{ q: string; a: string }>;
  useCases: Array<{ title: string; description: string }>;
  comparisonFacts: Record<string, string>;
  variants: Array<{ sku: string; attributes: Record<string, string>; priceDkk: bigint | null; stock: bigint }>;
}

/**
 * What each product is. The generator walks the seven categories in turn; of that walk, every fourth slot is a featured
 * designer frame (sold as glasses or sunglasses by its lenses) and every other sports slot a children's frame.
 */
type Kind = "sun" | "optical" | "sport" | "kids" | "luxury-optical" | "luxury-sun" | "bluelight" | "lens" | "accessory";

function kindOf(i: number): Kind {
  const slot = DEMO_CATEGORIES[i % DEMO_CATEGORIES.length]!.slug;
  if (slot === "boernebriller") return i % 14 === 3 ? "luxury-optical" : "luxury-sun";
  if (slot === "sportsbriller" && i % 14 === 9) return "kids";
  return ({ solbriller: "sun", briller: "optical", sportsbriller: "sport", blaalysbriller: "bluelight", kontaktlinser: "lens", tilbehoer: "accessory" } as const)[slot];
}

const CATEGORY_OF: Record<Kind, DemoCategorySlug> = {
  sun: "solbriller", "luxury-sun": "solbriller", optical: "briller", "luxury-optical": "briller", sport: "sportsbriller",
  kids: "boernebriller", bluelight: "blaalysbriller", lens: "kontaktlinser", accessory: "tilbehoer",
};
type DemoCategorySlug = (typeof DEMO_CATEGORIES)[number]["slug"];

const slugOf = (name: string) => name.toLowerCase().replace(/æ/g, "ae").replace(/ø/g, "oe").replace(/å/g, "aa").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** Where the demo shop's own product pictures are served (src/web/demo-images.ts, drawn by scripts/demo-images.ts). */
const demoImageUrl = (slug: string, n: 1 | 2) => `/demo-images/${slug}-${n}.svg`;

/**
 * Generates `count` products deterministically (the demo uses 80; benchmarks use 100,000). The random draws are the
 * same in number and order for every kind, so names, slugs, prices and stock stay what tool examples and tests name.
 */
export function demoProducts(count: number, seed = 42): DemoProduct[] {
  return [...demoProductStream(count, seed)];
}

/** The same products one at a time (a benchmark's million need not be held at once). */
export function* demoProductStream(count: number, seed = 42): Generator<DemoProduct> {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  for (let i = 0; i < count; i++) {
    const kind = kindOf(i);
    const category = DEMO_CATEGORIES.find((c) => c.slug === CATEGORY_OF[kind])!;
    const isLens = kind === "lens";
    const isAccessory = kind === "accessory";
    const isFrame = !isLens && !isAccessory;
    // Accessories are the house brand's (or unbranded); children's frames only of brands with a children's line.
    const drawnBrand = isAccessory && i % 3 === 0 ? null : pick(BRANDS);
    const brand = isAccessory ? (drawnBrand ? "Nordlys" : null) : kind === "kids" && !KIDS_BRANDS.has(drawnBrand!) ? "Nordlys" : drawnBrand;
    const shape = pick(SHAPES);
    const style = pick(STYLES);
    const lensType = isLens ? pick(["Daily", "Monthly", "Toric", "Multifocal"] as const) : null;
    const accessory = isAccessory ? pick(Object.keys(ACCESSORIES) as Array<keyof typeof ACCESSORIES>) : null;
    const name = isLens
      ? `${brand ?? "Nordlys"} ${lensType} ${style} ${i + 1}`
      : accessory
        ? `${accessory} ${style} ${i + 1}`
        : kind === "kids"
          ? `${brand} Junior ${shape} ${i + 1}`
          : `${brand ?? "Nordlys"} ${shape} ${style} ${i + 1}`;
    const slug = slugOf(name);
    const priceDraw = random();
    const basePrice = isAccessory ? 79 + Math.floor(priceDraw * 220) : isLens ? 149 + Math.floor(priceDraw * 350) : kind === "kids" ? 299 + Math.floor(priceDraw * 500) : 499 + Math.floor(priceDraw * 2500);
    const priceDkk = BigInt(basePrice * 100 + (random() < 0.5 ? 0 : 95));
    const stock = BigInt(i % 9 === 0 ? 0 : Math.floor(random() * 40) + 1);
    const drawnFrameColor = isLens ? null : pick(FRAME_COLORS);
    const drawnLensColor = isAccessory || kind === "optical" ? null : pick(LENS_COLORS);
    const material = isLens ? null : pick(MATERIALS);
    // Glasses for prescription lenses (and blue-light glasses) come with clear demo lenses; contact lenses are clear.
    const clear = kind === "optical" || kind === "luxury-optical" || kind === "kids" || kind === "bluelight" || isLens;
    const frameColor = isFrame ? drawnFrameColor : null;
    // Sunglasses never have clear lenses: a clear draw becomes grey.
    const lensColor = isAccessory ? null : clear ? "klar" : drawnLensColor === "klar" && kind !== "sport" ? "grå" : drawnLensColor;
    const withAnswers = i % 4 === 0;
    const variants =
      i % 5 === 1 && isFrame
        ? (kind === "kids" ? ["4–6 år", "6–8 år", "8–10 år"] : ["S", "M", "L"]).map((size, n) => ({
            sku: `${slug}-${"sml"[n]}`,
            attributes: { size },
            priceDkk: n === 2 ? priceDkk + 10000n : null,
            stock: BigInt(Math.floor(random() * 10) + (n === 1 ? 1 : 0)),
          }))
        : [];
    const copy = isLens
      ? lensCopy(name, brand, LENS_TYPES[lensType!])
      : accessory
        ? accessoryCopy(name, brand, accessory)
        : frameCopy(kind, name, brand, shape, material!, frameColor!, lensColor!, category.description, i);
    yield {
      slug,
      name,
      brand,
      description: copy.description,
      priceDkk,
      stock,
      featured: kind === "luxury-optical" || kind === "luxury-sun",
      returnable: lensType !== "Toric",
      frameColor,
      lensColor,
      categorySlug: category.slug,
      images: [demoImageUrl(slug, 1), ...(i % 2 === 0 ? [demoImageUrl(slug, 2)] : [])],
      deleted: count <= 1000 && i % 27 === 26,
      attributes: copy.attributes,
      answerSummary: withAnswers ? copy.summary : null,
      faq: withAnswers ? copy.faq : [],
      useCases: withAnswers ? copy.useCases : [],
      comparisonFacts: withAnswers ? copy.facts : {},
      variants,
    };
  }
}

interface Copy {
  description: string;
  attributes: Record<string, string>;
  summary: string;
  faq: Array<{ q: string; a: string }>;
  useCases: Array<{ title: string; description: string }>;
  facts: Record<string, string>;
}

function frameCopy(kind: Kind, name: string, brand: string | null, shape: string, material: string, frameColor: string, lensColor: string, blurb: string, i: number): Copy {
  const glass = LENS_GLASS[lensColor] ?? `${lensColor} glas`;
  const prescription = lensColor === "klar";
  const kids = kind === "kids";
  const intro = kids
    ? "Et fleksibelt og robust stel til børn fra 4 til 10 år, med fjederhængsler og bløde næsepuder."
    : kind === "luxury-optical" || kind === "luxury-sun"
      ? `Et udvalgt designerstel i ${material}, håndlavet og tidløst.`
      : blurb;
  return {
    description:
      `${name} fra ${brand ?? "Nordlys Optik"}. ${intro} Stellet er ${frameColor} med ${glass}` +
      `${prescription ? "; din optiker sætter styrkeglas i" : ""}. Leveres med etui og pudseklud.`,
    attributes: kids ? { shape, material, age: "4–10 år", lensWidth: "42 mm" } : { shape, material },
    summary: `${name} er et ${shape.toLowerCase()}-stel i ${material} med ${glass}, ${kids ? "lavet til at holde til en aktiv børnehverdag" : "godt til hverdag og ferie"}.`,
    faq: prescription
      ? [
          { q: "Kan jeg få styrke i?", a: "Ja, stellet leveres med klare demoglas, og din optiker sætter styrkeglas i." },
          { q: "Kan stellet justeres?", a: "Ja, vi justerer det gratis i butikken." },
        ]
      : [
          { q: "Har brillerne UV-beskyttelse?", a: "Ja, alle glas har UV400-beskyttelse." },
          { q: "Kan jeg få styrke i?", a: "Ja, de fleste stel kan leveres med styrkeglas hos din optiker." },
        ],
    useCases: [kids ? { title: "Skole og leg", description: "Fleksible hængsler, der tåler at blive tabt." } : { title: "Hverdag", description: "Let nok til at have på hele dagen." }],
    facts: { vægt: `${(kids ? 12 : 18) + (i % 20)} g`, garanti: "2 år", materiale: material },
  };
}

function lensCopy(name: string, brand: string | null, type: (typeof LENS_TYPES)[keyof typeof LENS_TYPES]): Copy {
  return {
    description: `${name} fra ${brand ?? "Nordlys Optik"}. ${type.wear} i silikonehydrogel, ${type.pack} pr. æske. ${type.use} Få dine linser tilpasset hos en optiker, før du bestiller.`,
    attributes: { type: "kontaktlinse", wear: type.wear, pack: type.pack, material: "silikonehydrogel", baseCurve: "8,6 mm", diameter: "14,2 mm" },
    summary: `${name} er en ${type.wear.toLowerCase()} i silikonehydrogel, ${type.pack} pr. æske.`,
    faq: [
      { q: "Skal jeg have en recept?", a: "Ja, kontaktlinser skal tilpasses af en optiker, før du bestiller." },
      { q: "Hvor længe kan linserne bruges?", a: type.use },
    ],
    useCases: [{ title: "Hverdag og sport", description: "Frit udsyn uden stel, også under sport." }],
    facts: { pakning: type.pack, garanti: "Ubrudt æske", materiale: "silikonehydrogel" },
  };
}

function accessoryCopy(name: string, brand: string | null, accessory: keyof typeof ACCESSORIES): Copy {
  const { attributes, text } = ACCESSORIES[accessory];
  return {
    description: `${name}${brand ? ` fra ${brand}` : ""}. ${text}`,
    attributes: { ...attributes },
    summary: `${name}: ${text.charAt(0).toLowerCase()}${text.slice(1)}`,
    faq: [{ q: "Passer det til mine briller?", a: "Ja, det passer til de fleste stel og glas." }],
    useCases: [{ title: "På farten", description: "Lille nok til tasken eller jakkelommen." }],
    facts: "material" in attributes ? { materiale: attributes.material, garanti: "2 år" } : { indhold: "30 ml", garanti: "Ubrudt flaske" },
  };
}

/**
 * The demo products' safety information (GPSR art. 19): an invented Danish maker (the demo brands are examples, not
 * their real makers), and the warnings a shop of each category would give in Danish.
 */
const DEMO_MAKER = { name: "Nordlys Eyewear A/S", address: "Industrivej 4, 8000 Aarhus C, Danmark", contact: "produktsikkerhed@nordlys-optik.dk" };
const DEMO_WARNINGS: Record<string, string> = {
  solbriller: "Se aldrig direkte på solen, heller ikke med solbriller. Glas i kategori 3 er ikke egnet til kørsel i tusmørke eller mørke.",
  sportsbriller: "Beskytter ikke mod slag fra hårde genstande som en godkendt beskyttelsesbrille. Ikke egnet til kørsel i mørke.",
  boernebriller: "Ikke legetøj. Små dele kan løsne sig: brug under opsyn af en voksen.",
  kontaktlinser: "Følg din optikers anvisninger. Tag linserne ud ved rødme, smerte eller sløret syn, og søg læge.",
  tilbehoer: "Opbevares utilgængeligt for børn. Rensespray må ikke komme i øjnene; skyl med vand ved kontakt.",
};

export function demoSafety(categorySlug: string) {
  return { manufacturer: DEMO_MAKER, euResponsible: null, warnings: DEMO_WARNINGS[categorySlug] ?? "" };
}

export async function isEmpty(db: Pick<PrismaClient, "category" | "product">): Promise<boolean> {
  return (await db.category.count()) === 0 && (await db.product.count()) === 0;
}

/** Inserts categories and generated products in batches (images and variants included). */
export async function seedCatalog(db: Db, count: number, seed = 42): Promise<void> {
  const categoryIds = new Map<string, string>();
  for (const category of DEMO_CATEGORIES) {
    const row = await db.category.upsert({ where: { slug: category.slug }, create: category, update: {} });
    categoryIds.set(category.slug, row.id);
  }
  const products = demoProducts(count, seed);
  const now = Date.now();
  for (let start = 0; start < products.length; start += 1000) {
    const batch = products.slice(start, start + 1000);
    const rows = batch.map((product, offset) => ({
      id: `p${String(start + offset).padStart(7, "0")}${seed}`,
      slug: product.slug,
      name: product.name,
      brand: product.brand,
      description: product.description,
      priceDkk: product.priceDkk,
      stock: product.stock,
      featured: product.featured,
      returnable: product.returnable,
      frameColor: product.frameColor,
      lensColor: product.lensColor,
      categoryId: categoryIds.get(product.categorySlug)!,
      attributes: product.attributes,
      answerSummary: product.answerSummary,
      faq: product.faq,
      useCases: product.useCases,
      comparisonFacts: product.comparisonFacts,
      safety: demoSafety(product.categorySlug),
      deletedAt: product.deleted ? new Date(now) : null,
      createdAt: new Date(now - (products.length - start - offset) * 60_000),
    }));
    await db.product.createMany({ data: rows });
    await db.productImage.createMany({
      data: batch.flatMap((product, offset) =>
        product.images.map((url, position) => ({ productId: rows[offset]!.id, url, position, alt: `${product.name}, billede ${position + 1}` })),
      ),
    });
    const variants = batch.flatMap((product, offset) =>
      product.variants.map((variant) => ({ productId: rows[offset]!.id, sku: variant.sku, attributes: variant.attributes, priceDkk: variant.priceDkk, stock: variant.stock })),
    );
    if (variants.length) await db.productVariant.createMany({ data: variants });
  }
}

/**
 * The demo shop's (made-up) bank account. Seeded with the demo, never a fallback: a shop that never set its own must not
 * send shoppers' money to an account that looks real.
 */
export const DEMO_BANK_ACCOUNT = { bankName: "Nordlys Bank", regNo: "1234", accountNo: "0012345678", iban: "DK5912340012345678" };

export async function seedSettings(db: Db): Promise<void> {
  const seeded = { ...DEFAULT_SETTINGS, contact: { ...DEFAULT_SETTINGS.contact, bankAccount: DEMO_BANK_ACCOUNT } };
  for (const [section, value] of Object.entries(seeded)) {
    await db.setting.upsert({ where: { section }, create: { section, value }, update: {} });
  }
  for (const flag of DEFAULT_FEATURES) {
    await db.featureFlag.upsert({ where: { key: flag.key }, create: flag, update: {} });
  }
}

/** The whole demo shop: catalogue, settings, pages, services, discount codes and a few weeks of history up to `now`. */
export async function seedDemo(db: Db, now = new Date()): Promise<void> {
  await seedCatalog(db, 80);
  const giftCards = await db.category.create({ data: { slug: "gavekort", name: "Gavekort", description: "Gavekort til briller, solbriller og tilbehør, sendt på e-mail." } });
  // An empty category (the one categories.delete's example removes).
  await db.category.create({ data: { slug: "udstillingsmodeller", name: "Udstillingsmodeller", description: "Udstillingsmodeller til nedsat pris kommer snart." } });
  await seedSettings(db);
  await db.page.createMany({
    data: [
      { slug: "om-os", title: "Om Nordlys Optik", body: "## Hvem vi er\n\nNordlys Optik er en dansk brillebutik grundlagt i København.\n\n## Vores løfte\n\nGode briller til fair priser." },
      { slug: "returret", title: "Returret", body: "## 14 dages returret\n\nDu kan returnere ubrugte varer inden for 14 dage efter, du har modtaget dem." },
      { slug: "vinterudsalg", title: "Vinterudsalg", body: "Kommer snart: vores store vinterudsalg med op til 40 % rabat.", status: "draft" },
    ],
  });
  await db.serviceOffering.createMany({
    data: [
      { slug: "synsproeve", title: "Synsprøve", body: "En grundig synsprøve hos en autoriseret optiker.", shortDescription: "Gratis synsprøve ved køb af briller.", priceString: "Gratis", navOrder: 1n, showInNav: true, features: ["20 minutter", "Autoriseret optiker"] },
      { slug: "kontaktlinsetilpasning", title: "Kontaktlinsetilpasning", body: "Tilpasning af kontaktlinser inkl. prøvelinser og opfølgning.", priceString: "Fra 395 kr.", navOrder: 2n, features: ["Prøvelinser", "Opfølgning efter 14 dage"] },
      { slug: "brilleservice", title: "Brilleservice", body: "Rens, justering og udskiftning af skruer og næsepuder.", priceString: "Gratis for kunder", navOrder: 3n, status: "draft" },
    ],
  });
  // A gift card the examples and the demo can use (a real shop's codes are random: giftcards.issue).
  await db.giftCard.create({
    data: { id: "demo-giftcard", code: "KXRT-7M2Q-PB4N-Z8WA", balanceDkk: 50000n, initialDkk: 50000n, source: "issued", reason: "Demo", expiresAt: new Date("2029-12-31T22:59:59Z"), movements: { create: { amountDkk: 50000n, actor: "system:demo" } } },
  });
  await db.discount.createMany({
    data: [
      { id: "demo-discount-velkommen10", code: "VELKOMMEN10", type: "percent", value: 10n },
      { id: "demo-discount-sommer200", code: "SOMMER200", type: "fixed", value: 20000n, usageLimit: 100n },
      { id: "demo-discount-udlobet", code: "UDLOBET", type: "percent", value: 25n, validUntil: new Date("2024-01-01T00:00:00Z") },
    ],
  });
  await seedHistory(db, now);
  // Added after the history, which picks its order lines from the products there are: it stays as it was.
  await db.product.create({
    data: {
      id: "demo-product-gavekort-500",
      slug: "gavekort-500-kr",
      name: "Gavekort 500 kr.",
      description: "Et gavekort på 500 kr. til alt hos Nordlys Optik. Koden sendes på e-mail, når ordren er betalt, og gælder i tre år.",
      priceDkk: 50000n,
      stock: 1000n,
      giftCard: true,
      categoryId: giftCards.id,
      answerSummary: "Et gavekort på 500 kr., sendt som en kode på e-mail, når ordren er betalt; gælder i tre år.",
    },
  });
}
