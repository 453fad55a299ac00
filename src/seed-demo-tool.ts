// setup.seed_demo (internal): the operator's `shop seed demo`, the demo shop seeded into an empty database in one
// transaction under the migration lock, with its SetupStep record and one audit entry. It lives beside src/setup.ts, not
// in src/tools, because tools never import the demo seed (prisma/seed): the composition root (src/runtime.ts) and the
// CLI's operator executor register it. Only the CLI needs it: no door lists or serves it.
import { z } from "zod";
import { lockMigrationsIn } from "./core/migrate.ts";
import { DEMO_SEED_STEP, seedDemoIn } from "./setup.ts";
import { defineTool, WRITE } from "./tools/tool.ts";

export default defineTool({
  name: "setup.seed_demo",
  description: "Seed the demo shop into an empty database, once. Returns {seeded}: false when it was seeded before or already holds a catalogue.",
  input: z.strictObject({}),
  output: z.strictObject({ seeded: z.boolean() }),
  scope: "settings:write",
  anonymous: false,
  audited: true,
  internal: true,
  transactionTimeoutMs: 600_000,
  annotations: WRITE,
  examples: [{}],
  async handler(_input, ctx) {
    await lockMigrationsIn(ctx.db);
    // No log line: the command prints its own answer, as it always has.
    if (!(await seedDemoIn(ctx.db))) {
      ctx.unchanged();
      return { seeded: false };
    }
    await ctx.audit({ subjectType: "setupStep", subjectId: DEMO_SEED_STEP, before: null, after: { name: DEMO_SEED_STEP } });
    return { seeded: true };
  },
});
