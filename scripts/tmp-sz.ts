import { mcpTool } from "../src/api/mcp-tools.ts";
import { createRegistry } from "../src/tools/registry.ts";
for (const t of createRegistry().tools.map(mcpTool)) if (/change_(delivery|address|items)/.test(t.name)) console.log(JSON.stringify(t).length, JSON.stringify(t));
