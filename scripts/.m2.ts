import { createRegistry } from "../src/tools/registry.ts";
import { describeTool } from "../src/tools/describe.ts";
import { compactSchema } from "../src/tools/compact-schema.ts";
const registry = createRegistry();
for (const n of process.argv.slice(2)) { const t = registry.get(n)!; console.log(n, JSON.stringify(compactSchema(describeTool(t).inputSchema))); }
