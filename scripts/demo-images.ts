// Draws the demo shop's product pictures into src/web/demo-images (committed; src/web/demo-images.ts serves them): for
// each demo product a front view (-1) and a close-up (-2), with the storefront's own illustration and its stylesheet's
// colours, so the demo never points at a photo host. Run again after changing the demo catalogue or the illustration:
// `node scripts/demo-images.ts`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { demoProducts } from "../prisma/seed/demo.ts";
import { productArt } from "../src/web/storefront/components.ts";

export const DEMO_IMAGES_DIR = fileURLToPath(new URL("../src/web/demo-images", import.meta.url));
const STYLESHEET = fileURLToPath(new URL("../src/web/styles/storefront.css", import.meta.url));

/** The illustration's rules of the storefront stylesheet (.art-*, .frame-*, .lens-*), minus the card layout of `.art`. */
function artRules(): string[] {
  return fs.readFileSync(STYLESHEET, "utf8").split("\n").filter((line) => /^\.(art-|frame-|lens-)/.test(line));
}

/** The rules whose every class the drawing uses. */
function stylesFor(svg: string, rules: string[]): string {
  const used = new Set([...svg.matchAll(/class="([^"]+)"/g)].flatMap((match) => match[1]!.split(" ")));
  return rules.filter((rule) => [...rule.split("{")[0]!.matchAll(/\.([\w-]+)/g)].every((match) => used.has(match[1]!))).join("");
}

const VIEWS = {
  1: { background: "#f6f1ea", art: 'x="80" y="150" width="640" height="320"' },
  // A close-up of the left half, on a cooler background.
  2: { background: "#e9eef2", art: 'x="-60" y="40" width="1040" height="520"' },
} as const;

/** Every demo picture by file name, as the script writes it. */
export function demoImages(): Map<string, string> {
  const rules = artRules();
  const files = new Map<string, string>();
  for (const product of demoProducts(80)) {
    const art = String(productArt(product)).replace('<svg class="art ', '<svg class="').replace(' aria-hidden="true" focusable="false"', "");
    for (const n of [1, 2] as const) {
      const view = VIEWS[n];
      const body = n === 1 ? art : art.replace('viewBox="0 0 200 100"', 'viewBox="0 0 120 100"');
      files.set(
        `${product.slug}-${n}.svg`,
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600"><style>${stylesFor(art, rules)}</style>` +
          `<rect width="800" height="600" fill="${view.background}"/>${body.replace("<svg ", `<svg ${view.art} `)}</svg>\n`,
      );
    }
  }
  return files;
}

if (import.meta.main) {
  const files = demoImages();
  fs.rmSync(DEMO_IMAGES_DIR, { recursive: true, force: true });
  fs.mkdirSync(DEMO_IMAGES_DIR, { recursive: true });
  for (const [name, svg] of files) fs.writeFileSync(path.join(DEMO_IMAGES_DIR, name), svg);
  console.log(`${files.size} pictures in ${path.relative(process.cwd(), DEMO_IMAGES_DIR)}`);
}
