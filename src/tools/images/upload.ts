// images.upload: store an uploaded image (JPEG, PNG, WebP, AVIF, sniffed from the bytes) in the database; answers its URL.
import { z } from "zod";
import { Invalid, ToolError } from "../../core/errors.ts";
import { defineTool, WRITE } from "../tool.ts";
import { imageId, imagePath, inspectImage, MAX_IMAGE_BYTES, storeImage } from "./stored.ts";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A 2×2 red PNG: the example every door replays. */
const EXAMPLE_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4ISd3Qk6OAUIBAB8mBBGFRCvEAAAAAElFTkSuQmCC";

export default defineTool({
  name: "images.upload",
  description:
    "Upload a JPEG, PNG, WebP or AVIF image (max 8 MB, 50 megapixels); attach its url with products.attach_image.",
  errors: [
    { status: 413, when: "over 8 MB" },
    { status: 422, code: "unsupported_image" },
    { status: 422, code: "invalid_image", when: "does not decode whole, or too many pixels" },
  ],
  input: z.strictObject({
    // Checked in the handler: z.base64() lists a long pattern in tools/list.
    data: z.string().min(1).describe("The file, base64."),
    contentType: z.string().min(1).max(100).describe("Declared; the bytes decide."),
    filename: z.string().min(1).max(200).optional().describe("Original file name."),
  }),
  output: z.strictObject({
    url: z.url().describe("Absolute URL of the image; ?w=400|800|1600 serves a resized WebP."),
    width: z.number().int().positive().describe("Width in pixels."),
    height: z.number().int().positive().describe("Height in pixels."),
  }),
  scope: "products:write",
  anonymous: false,
  audited: true,
  bodyLimit: "12mb",
  annotations: { ...WRITE, idempotentHint: true },
  examples: [{ data: EXAMPLE_PNG, contentType: "image/png", filename: "roed.png" }],
  async handler({ data, contentType, filename }, ctx) {
    if (data.length % 4 !== 0 || !BASE64.test(data)) throw new Invalid("data is not base64.", [{ path: "data", message: "Expected base64" }]);
    const bytes = Buffer.from(data, "base64");
    if (bytes.length > MAX_IMAGE_BYTES) throw new ToolError(413, "payload_too_large", "Payload too large", `The image is ${bytes.length} bytes; at most ${MAX_IMAGE_BYTES} are accepted.`);
    const image = { id: imageId(bytes), ...(await inspectImage(bytes)) };
    const url = `${ctx.config.publicBaseUrl}${imagePath(image)}`;
    if (await storeImage(ctx.db, image, bytes)) {
      await ctx.audit({ subjectType: "image", subjectId: image.id, before: null, after: { ...image, bytes: bytes.length, declaredType: contentType, filename: filename ?? null } });
    } else {
      ctx.unchanged();
    }
    return { url, width: image.width, height: image.height };
  },
});
