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
const FRAME_COLORS = ["sort", "skildpadde", "guld", "sølv", "transparent", "blå", "rød", "grøn", "hvid", "brun"];
const LENS_COLORS = ["grå", "grøn", "brun", "blå spejl", "gul", "klar", "rosa", "polariseret grå"];
const SHAPES = ["Aviator", "Wayfarer", "Rund", "Cat-eye", "Kvadratisk", "Panto", "Browline", "Oversize", "Sport Wrap", "Clubmaster"];
const STYLES = ["Classic", "Slim", "Bold", "Air", "Street", "Coast", "Fjord", "Vinter", "Sommer", "Studio"];

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

/** Generates `count` products deterministically (the demo uses 80; benchmarks use 100,000). */
export function demoProducts(count: number, seed = 42): DemoProduct[] {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const products: DemoProduct[] = [];
  for (let i = 0; i < count; i++) {
    const category = DEMO_CATEGORIES[i % DEMO_CATEGORIES.length]!;
    const brand = category.slug === "tilbehoer" && i % 3 === 0 ? null : pick(BRANDS);
    const shape = pick(SHAPES);
    const style = pick(STYLES);
    const isLens = category.slug === "kontaktlinser";
    const isAccessory = category.slug === "tilbehoer";
    const lensType = isLens ? pick(["Daily", "Monthly", "Toric", "Multifocal"]) : null;
    const name = isLens
      ? `${brand ?? "Nordlys"} ${lensType} ${style} ${i + 1}`
      : isAccessory
        ? `${pick(["Etui", "Pudseklud", "Brillekæde", "Rensespray"])} ${style} ${i + 1}`
        : `${brand ?? "Nordlys"} ${shape} ${style} ${i + 1}`;
    const slug = name.toLowerCase().replace(/æ/g, "ae").replace(/ø/g, "oe").replace(/å/g, "aa").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    const basePrice = isAccessory ? 79 + Math.floor(random() * 220) : isLens ? 149 + Math.floor(random() * 350) : 499 + Math.floor(random() * 2500);
    const priceDkk = BigInt(basePrice * 100 + (random() < 0.5 ? 0 : 95));
    const stock = BigInt(i % 9 === 0 ? 0 : Math.floor(random() * 40) + 1);
    const frameColor = isLens ? null : pick(FRAME_COLORS);
    const lensColor = isAccessory || category.slug === "briller" ? (category.slug === "briller" ? "klar" : null) : pick(LENS_COLORS);
    const withAnswers = i % 4 === 0;
    products.push({
      slug: `${slug}`,
      name,
      brand,
      description: `${name} fra ${brand ?? "Nordlys Optik"}. ${category.description} Stellet er ${frameColor ?? "uden stel"}${lensColor ? ` med ${lensColor} glas` : ""}, og leveres med etui og pudseklud.`,
      priceDkk,
      stock,
      featured: i % 7 === 3,
      returnable: lensType !== "Toric",
      frameColor,
      lensColor,
      categorySlug: category.slug,
      images: [`https://images.nordlys-optik.dk/products/${slug}-1.jpg`, ...(i % 2 === 0 ? [`https://images.nordlys-optik.dk/products/${slug}-2.jpg`] : [])],
      deleted: count <= 1000 && i % 27 === 26,
      attributes: isLens ? { type: "kontaktlinse" } : { shape, material: pick(["acetat", "titanium", "metal", "nylon"]) },
      answerSummary: withAnswers ? `${name} er en ${shape.toLowerCase()}-model med ${lensColor ?? "klare"} glas, god til hverdag og ferie.` : null,
      faq: withAnswers
        ? [
            { q: "Har brillerne UV-beskyttelse?", a: "Ja, alle glas har UV400-beskyttelse." },
            { q: "Kan jeg få styrke i?", a: "Ja, de fleste stel kan leveres med styrkeglas hos din optiker." },
          ]
        : [],
      useCases: withAnswers ? [{ title: "Hverdag", description: "Let nok til at have på hele dagen." }] : [],
      comparisonFacts: withAnswers ? { vægt: `${18 + (i % 20)} g`, garanti: "2 år", materiale: isLens ? "silikonehydrogel" : "acetat" } : {},
      variants:
        i % 5 === 1 && !isLens && !isAccessory
          ? [
              { sku: `${slug}-s`, attributes: { size: "S" }, priceDkk: null, stock: BigInt(Math.floor(random() * 10)) },
              { sku: `${slug}-m`, attributes: { size: "M" }, priceDkk: null, stock: BigInt(Math.floor(random() * 10) + 1) },
              { sku: `${slug}-l`, attributes: { size: "L" }, priceDkk: priceDkk + 10000n, stock: BigInt(Math.floor(random() * 10)) },
            ]
          : [],
    });
  }
  return products;
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
      { slug: "returret", title: "Returret", body: "## 30 dages returret\n\nDu kan returnere ubrugte varer inden for 30 dage." },
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
