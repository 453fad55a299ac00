// GET /images/<sha256>.<ext>[?w=400|800|1600]: uploaded images from the database (so every process serves them), the
// original or a resized WebP, cached for a year by browsers and proxies (the hash names the content).
import express, { type Request, type Response, type Router } from "express";
import { ToolError } from "../core/errors.ts";
import type { WebDeps } from "./deps.ts";
import { IMAGE_WIDTHS, parseImagePath } from "../tools/images/stored.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
/** Renditions this process could not make that it remembers (oldest forgotten first). */
const MAX_REMEMBERED_FAILURES = 1000;

export function imagesRouter(deps: Pick<WebDeps, "images" | "log">): Router {
  const router = express.Router();
  const { images } = deps;
  // A rendition sharp cannot make fails the same way every time: it is answered at once from here, logged once.
  const unresizable = new Set<string>();
  const cannotResize = (res: Response) => plain(res, 422, "This image cannot be resized; the original is served without ?w.");
  router.get("/images/:name", async (req: Request, res: Response) => {
    try {
      const asked = parseImagePath(String(req.params.name));
      const image = asked ? await images.find(asked.id) : null;
      if (!asked || !image || image.contentType !== asked.contentType) return plain(res, 404, "No such image.");
      const w = typeof req.query.w === "string" ? Number(req.query.w) : undefined;
      if (req.query.w !== undefined && !IMAGE_WIDTHS.some((width) => width === w)) {
        return plain(res, 400, `Width must be one of ${IMAGE_WIDTHS.join(", ")}.`);
      }
      const etag = `"${image.id}-${w ?? "o"}"`;
      res.set({ "Cache-Control": IMMUTABLE, ETag: etag, "X-Content-Type-Options": "nosniff", "Cross-Origin-Resource-Policy": "same-site" });
      if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) {
        res.status(304).end();
        return;
      }
      const rendition = `${image.id}@${w}`;
      if (w && unresizable.has(rendition)) return cannotResize(res);
      let bytes: Buffer | undefined;
      try {
        bytes = w ? await images.rendition(image.id, w) : await images.original(image.id);
      } catch (error) {
        if (!(error instanceof ToolError && error.code === "invalid_image")) throw error;
        if (unresizable.size >= MAX_REMEMBERED_FAILURES) unresizable.delete(unresizable.values().next().value!);
        unresizable.add(rendition);
        deps.log.warn("image rendition failed", { image: image.id, width: w, error: error.message });
        return cannotResize(res);
      }
      if (!bytes) return plain(res, 404, "No such image.");
      res.status(200).type(w ? "image/webp" : image.contentType).set("Content-Length", String(bytes.length)).end(bytes);
    } catch (error) {
      deps.log.error("image failed", { path: req.path, error: String(error) });
      if (!res.headersSent) plain(res, 500, "The image could not be read.");
    }
  });
  return router;
}

function plain(res: Response, status: number, text: string): void {
  res.removeHeader("Cache-Control");
  res.removeHeader("ETag");
  res.status(status).set({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }).type("text/plain").send(text);
}
