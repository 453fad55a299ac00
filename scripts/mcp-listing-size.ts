// Measures MCP's tools/list for a * key (every tool, as src/api/mcp-tools.ts lists it) against the 120,000-character
// budget that test/api/mcp-listing.test.ts holds, and names the largest tools: `node scripts/mcp-listing-size.ts [count]`.
import { mcpTool } from "../src/api/mcp-tools.ts";
import { createRegistry } from "../src/tools/registry.ts";

const BUDGET = 120_000;
const tools = createRegistry().tools.map(mcpTool);
const size = JSON.stringify({ tools }).length;
const part = (pick: (tool: (typeof tools)[number]) => unknown) => tools.reduce((sum, tool) => sum + JSON.stringify(pick(tool)).length, 0);

console.log(`${tools.length} tools: ${size.toLocaleString("en")} characters of ${BUDGET.toLocaleString("en")} (${(BUDGET - size).toLocaleString("en")} left)`);
console.log(`descriptions ${part((tool) => tool.description).toLocaleString("en")}, input schemas ${part((tool) => tool.inputSchema).toLocaleString("en")}, annotations ${part((tool) => tool.annotations).toLocaleString("en")}`);
const largest = [...tools].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, Number(process.argv[2] ?? 10));
for (const tool of largest) console.log(`${String(JSON.stringify(tool).length).padStart(6)}  ${tool.name}`);
