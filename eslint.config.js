// Lint: the recommended JavaScript and typescript-eslint rules; generated code is skipped.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["src/generated/**", "node_modules/**", "data/**", "coverage/**", "build/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", fetch: "readonly", setTimeout: "readonly", clearTimeout: "readonly", AbortController: "readonly", Blob: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      // Node's type stripping keeps `import { type A } from "m"` as `import "m"`, which loads m: type-only imports say `import type`.
      "@typescript-eslint/no-import-type-side-effects": "error",
    },
  },
  {
    // Browser code: the DOM globals are checked by TypeScript (src/web/client/tsconfig.json), not by no-undef.
    files: ["src/web/client/**/*.ts"],
    rules: { "no-undef": "off" },
  },
);
