// Uploaded images in the database: sniffing an upload with sharp, storing it under its SHA-256, and the resized WebP
// renditions the /images route serves (made once per width, then read back from the database by every process).
import crypto from "node:crypto";
import type { Metadata } from "sharp";
import { Refused } from "../../core/errors.ts";
import type { Db } from "../../core/db.ts";

/** The largest upload, decoded. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The most pixels an upload may have (a 48-megapixel photo fits): decoding it whole costs time and memory in proportion. */
const MAX_IMAGE_PIXELS = 50_000_000;
/** The widths /images serves resized (never enlarged); a card uses the smallest. */
export const IMAGE_WIDTHS = [400, 800, 1600] as const;

/** The image formats accepted, by sharp's name for them: the content type and the file extension of the URL. */
const FORMATS: Record<string, { contentType: string; ext: string }> = {
  jpeg: { contentType: "image/jpeg", ext: "jpg" },
  png: { contentType: "image/png", ext: "png" },
  webp: { contentType: "image/webp", ext: "webp" },
  avif: { contentType: "image/avif", ext: "avif" },
};
const EXTENSIONS = new Map(Object.values(FORMATS).map((format) => [format.contentType, format.ext]));

export interface ImageFacts {
  id: string;
  contentType: string;
  width: number;
  height: number;
}

/**
 * What the bytes are (never what the client says): an accepted format with its size, or a 422 refusal. The header alone
 * says little (a PNG cut off after it reads fine), so the image is decoded whole, as every rendition will decode it.
 */
export async function inspectImage(bytes: Buffer): Promise<Omit<ImageFacts, "id">> {
  let metadata: Metadata;
  try {
    metadata = await (await loadSharp())(bytes).metadata();
  } catch {
    throw new Refused("invalid_image", "The data is not a readable image.");
  }
  // sharp reports AVIF as "heif" with AV1 compression.
  const name = metadata.format === "heif" && metadata.compression === "av1" ? "avif" : metadata.format;
  const format = name ? FORMATS[name] : undefined;
  if (!format) throw new Refused("unsupported_image", `Images of type ${name ?? "unknown"} are not accepted; send JPEG, PNG, WebP or AVIF.`);
  if (!metadata.width || !metadata.height) throw new Refused("invalid_image", "The image has no size.");
  if (metadata.width * metadata.height > MAX_IMAGE_PIXELS) {
    throw new Refused("invalid_image", `The image is ${metadata.width}×${metadata.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted.`);
  }
  try {
    await (await loadSharp())(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).stats();
  } catch {
    throw new Refused("invalid_image", "The image does not decode (it may be cut off or damaged).");
  }
  return { contentType: format.contentType, width: metadata.width, height: metadata.height };
}

export function imageId(bytes: Buffer): string {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

/** The path an image is served at: its hash and the extension of its type. */
export function imagePath(image: Pick<ImageFacts, "id" | "contentType">): string {
  return `/images/${image.id}.${EXTENSIONS.get(image.contentType) ?? "bin"}`;
}

/** `/images/<hash>.<ext>` back to the hash and the content type its extension names, or undefined. */
export function parseImagePath(name: string): { id: string; contentType: string } | undefined {
  const match = /^([0-9a-f]{64})\.([a-z]{3,4})$/.exec(name);
  const contentType = match ? [...EXTENSIONS].find(([, ext]) => ext === match[2])?.[0] : undefined;
  return match && contentType ? { id: match[1]!, contentType } : undefined;
}

export async function findImage(db: Db, id: string): Promise<ImageFacts | null> {
  return db.storedImage.findUnique({ where: { id }, select: { id: true, contentType: true, width: true, height: true } });
}

/** Stores the bytes unless an image with the same hash is there already; true when it was new. */
export async function storeImage(db: Db, image: ImageFacts, bytes: Buffer): Promise<boolean> {
  const created = await db.storedImage.createMany({ data: [{ ...image, bytes: new Uint8Array(bytes) }], skipDuplicates: true });
  return created.count === 1;
}

export async function originalBytes(db: Db, id: string): Promise<Buffer | undefined> {
  const row = await db.storedImage.findUnique({ where: { id }, select: { bytes: true } });
  return row ? Buffer.from(row.bytes) : undefined;
}

/**
 * The image as WebP at most `width` wide: read from the database, or made with sharp and stored for every later request
 * (two processes racing make it twice and keep one). Undefined for an unknown image; 422 invalid_image when sharp cannot
 * make it (an image stored before uploads were decoded whole, or one WebP cannot hold).
 */
export async function renditionBytes(db: Db, id: string, width: number): Promise<Buffer | undefined> {
  const stored = await db.storedImageRendition.findUnique({ where: { imageId_width: { imageId: id, width } }, select: { bytes: true } });
  if (stored) return Buffer.from(stored.bytes);
  const original = await originalBytes(db, id);
  if (!original) return undefined;
  let resized: Buffer;
  try {
    resized = await (await loadSharp())(original).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  } catch (error) {
    throw new Refused("invalid_image", `The image cannot be resized to ${width} px: ${error instanceof Error ? error.message : String(error)}`);
  }
  await db.storedImageRendition.createMany({ data: [{ imageId: id, width, bytes: new Uint8Array(resized) }], skipDuplicates: true });
  return resized;
}

/** sharp and its native libvips, loaded with the first upload or resize rather than with every process. */
async function loadSharp() {
  return (await import("sharp")).default;
}


/**
 * The stored images as the /images route reads them: a store the composition root builds over the database, so the web
 * door serves them without holding the database itself.
 */
export class StoredImages {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  find(id: string): Promise<ImageFacts | null> {
    return findImage(this.db, id);
  }

  original(id: string): Promise<Buffer | undefined> {
    return originalBytes(this.db, id);
  }

  rendition(id: string, width: number): Promise<Buffer | undefined> {
    return renditionBytes(this.db, id, width);
  }
}
