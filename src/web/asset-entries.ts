// The web's client assets by output name, bundled by scripts/build-assets.ts before the server starts: `site: "client/site.ts"`
// becomes /assets/site.<hash>.js. Paths are relative to src/web/.
import { fileURLToPath } from "node:url";

/** Where the build writes the assets and the server reads them. */
export const ASSETS_DIR = fileURLToPath(new URL("../../build/assets", import.meta.url));

/** build/assets/manifest.json: by plain name ("site.css"), the built file's hashed name and its Content-Type. */
export type AssetManifest = Record<string, { file: string; type: string }>;

export const ASSET_ENTRIES = {
  scripts: {
    // Every site: the base enhancements.
    site: "client/site.ts",
    // The storefront.
    storefront: "client/storefront.ts",
    checkout: "client/checkout.ts",
    "chat-widget": "client/chat-widget.ts",
    "chat-panel": "client/chat-panel.ts",
    // The admin.
    admin: "client/admin.ts",
    "admin-assistant": "client/admin-assistant.ts",
    // The API reference (/docs): Swagger UI, loaded by that page alone.
    docs: "client/docs.ts",
  },
  styles: { site: "styles/site.css", admin: "styles/admin.css", docs: "styles/docs.css" },
  /** Served as they are, by their file name. */
  files: { "icon.svg": "styles/icon.svg" },
};
