// Lint: the recommended JavaScript and typescript-eslint rules; generated code is skipped.
import fs from "node:fs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** A no-restricted-imports rule for files matching `files`: relative imports into any of `folders` are refused. */
function layer(files, folders, message) {
  const regex = `(^|/)(${folders.join("|")})/`;
  return [{ files: [files], rules: { "no-restricted-imports": ["error", { patterns: [{ regex, message }] }] } }];
}

/**
 * A layer rule for a door that the composition root hands its deps (src/compose.ts): besides the folders, runtime.ts
 * and any `.database` member are refused, so the door never reaches the runtime or the database behind the tools.
 */
function door(files, folders, message, who) {
  return [
    {
      files: [files],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              { regex: `(^|/)(${folders.join("|")})/`, message },
              { regex: "(^|/)runtime\\.ts$", message: `${who} gets its deps from the composition root (src/compose.ts), never the runtime` },
            ],
          },
        ],
        "no-restricted-syntax": ["error", { selector: "MemberExpression[property.name='database']", message: "the database stays behind tools and core stores, out of the doors" }],
      },
    },
  ];
}

/** The tool areas: every folder of src/tools but the rooms below them (money, shared), read so a new area is covered. */
const toolAreas = fs
  .readdirSync(new URL("./src/tools/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !["money", "shared"].includes(entry.name))
  .map((entry) => entry.name);

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
  // Layers point one way (tools and core below, http plumbing above them, the doors and sites on top):
  // a relative import is refused when it names a folder the importing layer must not reach.
  ...layer("src/core/**/*.ts", ["tools", "http", "api", "web", "assistants", "seed"], "core is the leaf: config, database, errors, logging"),
  // src/http is handed its collaborators too: session.ts gets the StorefrontSessions store and the secret.
  ...door("src/http/**/*.ts", ["api", "web", "assistants"], "src/http is plumbing shared by the doors and sites; it knows none of them", "HTTP plumbing"),
  // The web door gets WebDeps (src/compose.ts webDeps): not the runtime, not its database.
  ...door("src/web/**/*.ts", ["api", "generated"], "the web is a door: it reaches HTTP plumbing through src/http and data through tools, never src/api or Prisma", "the web door"),
  // Every door of src/api gets what it needs (UcpDeps, AcpDeps, StripeWebhookDeps, the executor and Gate) from the
  // composition root (src/app.ts, src/compose.ts): not the runtime, not its database.
  ...door("src/api/**/*.ts", ["web", "assistants", "generated"], "src/api holds the doors: tools, http plumbing and core only, never Prisma", "a door"),
  // The assistants get their ChatService's deps and the transports' ChatDeps from the composition root.
  ...door("src/assistants/**/*.ts", ["api", "web", "generated"], "the assistants are doors: HTTP plumbing through src/http, data through src/tools, never src/api or Prisma", "an assistant"),
  // The CLI's commands get a CommandContext (src/cli/commands.ts) from its composition roots (src/cli.ts with
  // src/operator.ts, and src/main.ts for commands a server runs): the executor, `migrate` (db migrate stays a core call,
  // as it makes the tables every tool needs) and the ACP feed's files. No exception is needed: no file of src/cli holds
  // the database. The demo seed tool it calls lives in src/seed-demo-tool.ts, since tools never import prisma/seed.
  ...door("src/cli/**/*.ts", ["api", "web", "assistants", "generated"], "the CLI is a door: tools through the executor, core and src/http plumbing only, never another door or Prisma", "the CLI"),
  ...layer("src/tools/**/*.ts", ["http", "api", "web", "assistants", "seed"], "tools are the domain: no door, no plumbing, no demo seed"),
  // Below the tool areas (a later rule replaces the one above for these files, so it repeats its folders): money
  // (ledger, refunds, gift-card balances, payment providers) and the shared primitives import no area, so every area
  // may import them without a cycle.
  ...layer("src/tools/money/**/*.ts", ["http", "api", "web", "assistants", "seed", ...toolAreas], "money sits below the tool areas: core, the Prisma client, the tool context and tools/shared only"),
  ...layer("src/tools/shared/**/*.ts", ["http", "api", "web", "assistants", "seed", "money", ...toolAreas], "tools/shared holds primitives every area uses: it imports no area"),
  {
    // Browser code: the DOM globals are checked by TypeScript (src/web/client/tsconfig.json), not by no-undef.
    files: ["src/web/client/**/*.ts"],
    rules: { "no-undef": "off" },
  },
);
