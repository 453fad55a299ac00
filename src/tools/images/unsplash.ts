// The stock-photo provider client (Unsplash search API): one GET with a timeout; every failure becomes a notice, never an exception.
import { z } from "zod";
import type { Config } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";

interface StockPhoto {
  id: string;
  description: string | null;
  url: string;
  thumbUrl: string;
  width: number;
  height: number;
  photographer: string;
  photographerUrl: string;
  sourceId: string;
}

export interface StockPhotoResult {
  photos: StockPhoto[];
  /** Why the list is empty or incomplete, for the model to relay; null when all went well. */
  notice: string | null;
}

export interface StockPhotoQuery {
  query: string;
  perPage: number;
  page: number;
}

type ProviderConfig = Pick<Config, "stockPhotoAccessKey" | "stockPhotoApiUrl" | "stockPhotoTimeoutMs">;

const https = z.url({ protocol: /^https$/ });
const providerPhoto = z.object({
  id: z.string().min(1),
  description: z.string().nullish(),
  alt_description: z.string().nullish(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  urls: z.object({ regular: https, thumb: https }),
  user: z.object({ name: z.string(), links: z.object({ html: z.url() }) }),
});
const providerPage = z.object({ results: z.array(z.unknown()) });

export const NOT_CONFIGURED =
  "Stock-photo search is not configured on this server (no provider access key), so no photos can be found. " +
  "An image you already have can still be attached by its https URL with products.attach_image.";

/** Searches the provider; without an access key, or when the provider fails or is slow, returns no photos and a notice. */
export async function searchStockPhotos(config: ProviderConfig, search: StockPhotoQuery, log: Logger): Promise<StockPhotoResult> {
  if (!config.stockPhotoAccessKey) return { photos: [], notice: NOT_CONFIGURED };
  const url = new URL("search/photos", `${config.stockPhotoApiUrl.replace(/\/+$/, "")}/`);
  url.search = new URLSearchParams({ query: search.query, per_page: String(search.perPage), page: String(search.page) }).toString();
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Client-ID ${config.stockPhotoAccessKey}`, "Accept-Version": "v1", Accept: "application/json" },
      signal: AbortSignal.timeout(config.stockPhotoTimeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    log.warn("stock-photo search failed", { error: error instanceof Error ? error.message : String(error), timedOut });
    return {
      photos: [],
      notice: timedOut
        ? `The stock-photo provider did not answer within ${config.stockPhotoTimeoutMs / 1000} s; try again in a moment.`
        : "The stock-photo provider could not be reached; try again in a moment.",
    };
  }
  if (!response.ok) {
    log.warn("stock-photo provider refused", { status: response.status });
    await response.body?.cancel();
    const refused = response.status === 401 || response.status === 403;
    return {
      photos: [],
      notice: refused
        ? `The stock-photo provider refused the search (HTTP ${response.status}): the access key is invalid or its rate limit is used up. Try again later.`
        : `The stock-photo provider failed (HTTP ${response.status}); try again in a moment.`,
    };
  }
  const page = providerPage.safeParse(await response.json().catch(() => undefined));
  if (!page.success) return { photos: [], notice: "The stock-photo provider sent an unreadable answer; try again in a moment." };
  const photos = page.data.results.flatMap((raw) => {
    const photo = providerPhoto.safeParse(raw);
    return photo.success ? [toPhoto(photo.data)] : [];
  });
  const notice = photos.length ? null : `No stock photos matched "${search.query}"${search.page > 1 ? ` on page ${search.page}` : ""}; try other (English) words.`;
  return { photos, notice };
}

function toPhoto(photo: z.infer<typeof providerPhoto>): StockPhoto {
  return {
    id: photo.id,
    description: photo.description ?? photo.alt_description ?? null,
    url: photo.urls.regular,
    thumbUrl: photo.urls.thumb,
    width: photo.width,
    height: photo.height,
    photographer: photo.user.name,
    photographerUrl: photo.user.links.html,
    sourceId: `unsplash:${photo.id}`,
  };
}
