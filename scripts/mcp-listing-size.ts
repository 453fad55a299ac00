// Measures MCP's tools/list for a * key (every tool, as src/api/mcp-tools.ts lists it) against the 120,000-character
// budget that test/api/mcp-listing.test.ts holds, and names the largest tools: `node scripts/mcp-listing-size.ts [count]`.
// `node scripts/mcp-listing-size.ts --toolsets` prints instead the table of docs/mcp.md: each toolset's listing for a
// * key connected with `/api/mcp?toolsets=<toolset>`.
import { mcpTool } from "../src/api/mcp-tools.ts";
import { createRegistry } from "../src/tools/registry.ts";
import { TOOLSETS, toolsetOf } from "../src/tools/toolsets.ts";

const BUDGET = 120_000;
/** Characters per token of such a listing, roughly (JSON with English text). */
const CHARS_PER_TOKEN = 4;
const tools = createRegistry().tools.map(mcpTool);
const size = JSON.stringify({ tools }).length;
const part = (pick: (tool: (typeof tools)[number]) => unknown) => tools.reduce((sum, tool) => sum + JSON.stringify(pick(tool)).length, 0);
const tokens = (chars: number) => `≈ ${(Math.round(chars / CHARS_PER_TOKEN / 100) * 100).toLocaleString("en")}`;

if (process.argv[2] === "--toolsets") {
  console.log("| Toolset | Tools | Characters | Tokens |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const name of TOOLSETS) {
    const listed = tools.filter((tool) => toolsetOf(tool.name) === name);
    const chars = JSON.stringify({ tools: listed }).length;
    console.log(`| ${name} | ${listed.length} | ${chars.toLocaleString("en")} | ${tokens(chars)} |`);
  }
  console.log(`| every tool (\`*\`) | ${tools.length} | ${size.toLocaleString("en")} | ${tokens(size)} |`);
} else {
  console.log(`${tools.length} tools: ${size.toLocaleString("en")} characters of ${BUDGET.toLocaleString("en")} (${(BUDGET - size).toLocaleString("en")} left)`);
  console.log(`descriptions ${part((tool) => tool.description).toLocaleString("en")}, input schemas ${part((tool) => tool.inputSchema).toLocaleString("en")}, annotations ${part((tool) => tool.annotations).toLocaleString("en")}`);
  const largest = [...tools].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, Number(process.argv[2] ?? 10));
  for (const tool of largest) console.log(`${String(JSON.stringify(tool).length).padStart(6)}  ${tool.name}`);
}
