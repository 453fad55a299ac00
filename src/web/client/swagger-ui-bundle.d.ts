// Types of the browser bundle of swagger-ui-dist: its package root also loads Node's path module, so the docs page
// imports the bundle file itself, typed by @types/swagger-ui-dist.
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  import type { SwaggerUIBundle } from "swagger-ui-dist";

  const bundle: SwaggerUIBundle;
  export default bundle;
}
