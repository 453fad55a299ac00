// The Claude Desktop configuration /docs/mcp shows, run for real: mcp-remote (the dev dependency, on the pinned Node)
// started with exactly the page's arguments and env, driven over its stdio by the official SDK client. The key in
// AUTH_HEADER reaches the shop only if mcp-remote expands `Authorization:${AUTH_HEADER}` as the page promises.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, expect, it } from "vitest";
import { useServer } from "../support/server.ts";

const { server, keys: { reader } } = useServer({ keys: { reader: ["orders:read"] } });
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-mcp-remote-"));
afterAll(() => fs.rmSync(configDir, { recursive: true, force: true }));

interface DesktopConfig {
  mcpServers: { shop: { command: string; args: string[]; env: Record<string, string> } };
}

/** The claude_desktop_config.json block of /docs/mcp, parsed. */
async function desktopConfig(): Promise<DesktopConfig> {
  const page = await fetch(`${server.url}/docs/mcp`).then((response) => response.text());
  const block = /aria-label="claude_desktop_config.json"><code>([^<]*)<\/code>/.exec(page)?.[1];
  if (!block) throw new Error("no claude_desktop_config.json block on /docs/mcp");
  return JSON.parse(block.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) as DesktopConfig;
}

/** `npx -y mcp-remote …` without the registry: the installed package's own bin, on this (the pinned) Node. */
function mcpRemoteBin(): string {
  const manifest = JSON.parse(fs.readFileSync("node_modules/mcp-remote/package.json", "utf8")) as { bin: Record<string, string> };
  return path.resolve("node_modules/mcp-remote", manifest.bin["mcp-remote"]!);
}

it("lists and calls the key's tools through mcp-remote started as the page's Claude Desktop config says", async () => {
  const { mcpServers: { shop } } = await desktopConfig();
  expect(shop.command).toBe("npx");
  expect(shop.args.slice(0, 2)).toEqual(["-y", "mcp-remote"]);
  // The page shows PUBLIC_BASE_URL (http://localhost:3000 here); the test server listens on a port of its own.
  const documented = `${server.runtime.config.publicBaseUrl}/api/mcp`;
  const args = shop.args.slice(2).map((arg) => (arg === documented ? `${server.url}/api/mcp` : arg));
  expect(args).toEqual([`${server.url}/api/mcp`, "--header", "Authorization:${AUTH_HEADER}"]);
  const env = Object.fromEntries(Object.entries(shop.env).map(([name, value]) => [name, value.replace("<key>", reader)]));

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpRemoteBin(), ...args],
    // Its OAuth store (unused with a key) in a directory of this test, not the home directory.
    env: { ...getDefaultEnvironment(), ...env, MCP_REMOTE_CONFIG_DIR: configDir },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const client = new Client({ name: "docs-desktop-check", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 30_000 });
    const { tools } = await client.listTools(undefined, { timeout: 30_000 });
    const names = tools.map((tool) => tool.name);
    // orders.list is listed for the key only: the header got through.
    expect(names).toContain("orders.list");
    expect(names).toContain("products.search");
    expect(names).not.toContain("orders.update_status");
    const result = await client.callTool({ name: "orders.list", arguments: { limit: 2 } }, undefined, { timeout: 30_000 });
    expect(result.isError ?? false, JSON.stringify(result.structuredContent)).toBe(false);
    expect((result.structuredContent as { result: unknown[] }).result).toHaveLength(2);
  } catch (error) {
    throw new Error(`${String(error)}\nmcp-remote said:\n${log}`, { cause: error });
  } finally {
    await client.close();
  }
}, 90_000);
