// The multipart parser of the one admin form that sends a file (a product image): multer in memory, one file of at most
// MAX_IMAGE_BYTES. A refusal (too large, too many parts) is kept for the page handler to show, after its CSRF check.
import type { RequestHandler } from "express";
import multer from "multer";
import { MAX_IMAGE_BYTES } from "../../tools/images/stored.ts";

export const IMAGE_FIELD = "image";

const parser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
}).single(IMAGE_FIELD);

/** Parses a multipart image form into req.body and req.file; a parse refusal lands in res.locals.uploadError. */
export const imageUpload: RequestHandler = (req, res, next) => {
  parser(req, res, (error?: unknown) => {
    if (error) res.locals.uploadError = error instanceof multer.MulterError ? error.code : "invalid";
    next();
  });
};

/** The Danish message for a refused upload. */
export function uploadErrorText(code: unknown): string {
  if (code === "LIMIT_FILE_SIZE") return `Billedet er for stort: højst ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`;
  return "Filen kunne ikke læses. Vælg ét billede (JPEG, PNG, WebP eller AVIF) og prøv igen.";
}
