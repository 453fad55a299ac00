// The API reference (/docs): Swagger UI over the shop's OpenAPI document. "Try it out" calls go to the origin this
// page came from (the CSP allows fetch only there), with the key given under Authorize as `Authorization: Bearer`.
import SwaggerUIBundle from "swagger-ui-dist/swagger-ui-bundle.js";

interface OpenApiDocument {
  servers?: Array<{ url: string; description?: string }>;
}

const root = document.querySelector<HTMLElement>("[data-api-reference]");
if (root) void mount(root, root.dataset.spec ?? "/api/v1/openapi.json");

async function mount(root: HTMLElement, specUrl: string): Promise<void> {
  let spec: OpenApiDocument;
  try {
    const response = await fetch(specUrl, { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    spec = (await response.json()) as OpenApiDocument;
  } catch (error) {
    root.textContent = `The OpenAPI document could not be loaded (${String(error)}); it is at ${specUrl}.`;
    return;
  }
  // The document names PUBLIC_BASE_URL as its server; a page opened under another address (a proxy, 127.0.0.1)
  // would call a second origin, which the CSP's connect-src refuses.
  spec.servers = [{ url: window.location.origin, description: "This server" }];
  SwaggerUIBundle({
    domNode: root,
    spec,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    docExpansion: "none",
    defaultModelsExpandDepth: -1,
    displayRequestDuration: true,
    filter: true,
    showExtensions: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for its badge.
    validatorUrl: null,
    // The key stays in this tab's memory, never in localStorage.
    persistAuthorization: false,
  });
}
