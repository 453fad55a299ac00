// The form posts of the product pages: create and edit (errors shown in the form, input kept), stock, images,
// variants and soft delete (each one tool call, then back with a message).
import { Invalid, NotFound, Refused, toToolError } from "../../../core/errors.ts";
import uploadImage from "../../../tools/images/upload.ts";
import adjustStock from "../../../tools/products/adjust_stock.ts";
import attachImage from "../../../tools/products/attach_image.ts";
import createProduct from "../../../tools/products/create.ts";
import deleteProduct from "../../../tools/products/delete.ts";
import deleteVariant from "../../../tools/products/delete_variant.ts";
import getProduct from "../../../tools/products/get.ts";
import detachImage from "../../../tools/products/detach_image.ts";
import updateProduct from "../../../tools/products/update.ts";
import listVariants from "../../../tools/products/list_variants.ts";
import upsertVariant from "../../../tools/products/upsert_variant.ts";
import type { Outcome } from "../../page.ts";
import { integer, kroner, optional } from "../forms.ts";
import { problemText } from "../problems.ts";
import type { AdminRequest } from "../site.ts";
import { slugCandidate, slugFromName } from "../slug.ts";
import { uploadErrorText } from "../upload.ts";
import { draftInput, newProductPage, productPage, PRODUCT_SLUG, type FormState } from "./product.ts";
import { optionsFromForm } from "./product-variants.ts";
import { saveSafety } from "./product-safety.ts";
import { formErrors, stockField, valuesFromForm, writeFields } from "./product-form.ts";

/** A refusal the form can show (bad input, taken slug, shop rule); anything else goes to the error page. */
function formState(error: unknown, values: FormState["values"]): FormState {
  const mapped = toToolError(error);
  if (mapped.status === 401 || mapped.status === 403 || mapped.status >= 500) throw error;
  return { values, errors: formErrors(mapped.errors), status: mapped.status, message: problemText(mapped) };
}

export async function createProductAction(web: AdminRequest): Promise<Outcome> {
  const values = valuesFromForm((name) => web.field(name));
  try {
    const created = await createWithSlug(web, values);
    return web.done(`/admin/products/${created.slug}`, `${values.name.trim()} er oprettet.`);
  } catch (error) {
    return newProductPage(web, formState(error, values));
  }
}

/** Tries before giving up on a slug derived from the name (name, name-2 … name-20). */
const DERIVED_SLUG_TRIES = 20;

/**
 * products.create with the slug typed, or when the field is empty one derived from the name; a derived slug that is
 * taken (409) is tried again with -2, -3 …, so the staff user never has to think of one.
 */
async function createWithSlug(web: AdminRequest, values: FormState["values"]) {
  const input = { ...writeFields(values), stock: stockField(values) };
  const typed = values.slug.trim();
  if (typed) return web.call(createProduct, { ...input, slug: typed });
  const base = slugFromName(values.name);
  if (base.length < 2) throw new Invalid("The slug cannot be made from the name.", [{ path: "slug", message: "Skriv en adresse: navnet giver ingen brugbar slug." }]);
  for (let n = 1; ; n++) {
    try {
      return await web.call(createProduct, { ...input, slug: slugCandidate(base, n) });
    } catch (error) {
      if (toToolError(error).status !== 409 || n >= DERIVED_SLUG_TRIES) throw error;
    }
  }
}

export async function updateProductAction(web: AdminRequest, slug: string): Promise<Outcome> {
  const values = { ...valuesFromForm((name) => web.field(name)), slug };
  try {
    await web.call(updateProduct, { slug, patch: { ...writeFields(values), returnable: values.returnable } });
    return web.done(`/admin/products/${slug}`, "Ændringerne er gemt.");
  } catch (error) {
    return productPage(web, slug, formState(error, values));
  }
}

type Action = (web: AdminRequest, slug: string) => Promise<string>;

const ACTIONS: Record<string, Action> = {
  async stock(web, slug) {
    const delta = integer(web.field("delta"), "delta");
    const set = integer(web.field("set"), "set");
    const result = await web.call(adjustStock, { slug, ...(delta !== undefined ? { delta } : {}), ...(set !== undefined ? { set } : {}), reason: web.field("reason").trim() });
    return `Lageret er ændret fra ${result.previousStock} til ${result.stock}.`;
  },
  async images(web, slug) {
    const result = await web.call(attachImage, { slug, imageUrl: web.field("imageUrl").trim(), alt: optional(web.field("alt")), sourceId: optional(web.field("sourceId")) });
    return "alreadyAttached" in result ? "Billedet var der allerede." : `Billedet er tilføjet (${result.totalImages} i alt).`;
  },
  async "images/detach"(web, slug) {
    const result = await web.call(detachImage, { slug, imageUrl: web.field("imageUrl") });
    return `Billedet er fjernet (${result.totalImages} tilbage).`;
  },
  async variants(web, slug) {
    const price = web.field("price").trim();
    const stock = integer(web.field("stock"), "Lager");
    const sku = web.field("sku").trim();
    if (!sku) throw new Invalid("Skriv en SKU.", [{ path: "SKU", message: "Mangler" }]);
    if (stock !== undefined && stock < 0) throw new Invalid("Lageret kan ikke være negativt.", [{ path: "Lager", message: "0 eller mere" }]);
    // "Tilføj" must not overwrite a variant that happens to have the SKU typed; "Gem" edits the one it was shown for.
    if (web.field("mode") === "new" && (await web.call(listVariants, { slug, ...(await draftInput(web, slug)) })).some((variant) => variant.sku === sku)) {
      throw new Invalid(`Der er allerede en variant med SKU ${sku}; ret den i stedet.`, [{ path: "SKU", message: "Findes allerede" }]);
    }
    const priceDkk = price ? kroner(price, "Egen pris") : null;
    if (priceDkk !== null && priceDkk !== undefined && priceDkk <= 0) throw new Invalid("Prisen skal være over 0 kr.", [{ path: "Egen pris", message: "Over 0" }]);
    const result = await web.call(upsertVariant, { slug, sku, attributes: optionsFromForm((name) => web.field(name)), priceDkk, ...(stock !== undefined ? { stock } : {}) });
    return result.created ? `Varianten ${result.variant.sku} er oprettet.` : `Varianten ${result.variant.sku} er gemt.`;
  },
  async safety(web, slug) {
    return saveSafety(web, slug, await draftInput(web, slug));
  },
  async "variants/delete"(web, slug) {
    await web.call(deleteVariant, { slug, sku: web.field("sku"), confirm: true });
    return `Varianten ${web.field("sku")} er slettet.`;
  },
};

export async function productAction(web: AdminRequest, slug: string, name: string): Promise<Outcome> {
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action || !PRODUCT_SLUG.test(slug)) throw new NotFound(`No product action ${name}.`);
  return web.act(`/admin/products/${slug}`, () => action(web, slug));
}

/**
 * POST /admin/products/<slug>/images/upload (multipart): images.upload, then products.attach_image with its URL and alt
 * text. attach_image takes https URLs only (its contract), so a shop served over plain http (development) appends the
 * image's path on the shop with products.update instead, without alt text.
 */
export async function uploadImageAction(web: AdminRequest, slug: string): Promise<Outcome> {
  if (!PRODUCT_SLUG.test(slug)) throw new NotFound(`No product "${slug}".`);
  const back = `/admin/products/${slug}#images`;
  const refused: unknown = web.res.locals.uploadError;
  if (refused) return web.done(back, uploadErrorText(refused), "error");
  const file = web.req.file;
  if (!file?.size) return web.done(back, "Vælg en billedfil først.", "error");
  return web.act(back, async () => {
    try {
      const image = await web.call(uploadImage, { data: file.buffer.toString("base64"), contentType: file.mimetype || "application/octet-stream", filename: file.originalname.slice(0, 200) || undefined });
      const size = `${image.width} × ${image.height} px`;
      if (image.url.startsWith("https:")) {
        const attached = await web.call(attachImage, { slug, imageUrl: image.url, alt: optional(web.field("alt")) });
        return "alreadyAttached" in attached ? "Billedet var der allerede." : `Billedet er lagt op (${size}, ${attached.totalImages} i alt).`;
      }
      const path = new URL(image.url).pathname;
      const { images } = await web.call(getProduct, { slug, ...(await draftInput(web, slug)) });
      if (images.includes(path)) return "Billedet var der allerede.";
      await web.call(updateProduct, { slug, patch: { images: [...images, path] } });
      return `Billedet er lagt op (${size}, ${images.length + 1} i alt).`;
    } catch (error) {
      throw danishImageRefusal(error);
    }
  });
}

/** The upload refusals staff can act on, in Danish; others go on unchanged. */
function danishImageRefusal(error: unknown): unknown {
  const mapped = toToolError(error);
  if (mapped.code === "unsupported_image") return new Refused(mapped.code, "Den filtype kan ikke bruges. Vælg et JPEG-, PNG-, WebP- eller AVIF-billede.");
  if (mapped.code === "invalid_image") return new Refused(mapped.code, "Filen er ikke et billede, der kan læses.");
  if (mapped.code === "payload_too_large") return new Refused(mapped.code, uploadErrorText("LIMIT_FILE_SIZE"));
  return error;
}

export async function deleteProductAction(web: AdminRequest, slug: string): Promise<Outcome> {
  if (!PRODUCT_SLUG.test(slug)) throw new NotFound(`No product "${slug}".`);
  const back = `/admin/products/${slug}`;
  if (web.field("confirm") !== "on") return web.done(back, "Sæt flueben ved \"Ja, slet produktet\" for at slette.", "error");
  try {
    await web.call(deleteProduct, { slug, confirm: true });
  } catch (error) {
    return web.refused(back, error);
  }
  return web.done("/admin/products", "Produktet er slettet. Det kan genskabes fra ændringsloggen.");
}
