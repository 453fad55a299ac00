// Test runner configuration: one server per test file, on a database cloned from a migrated, seeded template.
import { configDefaults, defineConfig } from "vitest/config";

// The CLI suites pin the embedded database (DATABASE_URL="", a PGlite data directory): on the PostgreSQL run they would
// repeat the PGlite run's work exactly, so that run leaves them out.
const pinnedToPglite = ["test/cli.test.ts", "test/cli-*.test.ts"];

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: process.env.TEST_DATABASE_URL ? [...configDefaults.exclude, ...pinnedToPglite] : configDefaults.exclude,
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time even on two cores: much of a file's time is spent waiting (spawned shops, Chromium,
    // PostgreSQL, timers), which vitest's default of cores − 1 leaves idle. VITEST_MAX_WORKERS overrides it.
    maxWorkers: 2,
    reporters: ["default"],
  },
});
