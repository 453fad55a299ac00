// /docs/mcp: how to connect MCP clients (Claude Code, Claude Desktop, Cursor, ChatGPT, the MCP Inspector) to the
// shop's MCP door, with the shop's own address filled in. The Claude Desktop bridge configuration is run for real by
// test/web/docs-mcp-remote.test.ts.
import { html, type Html } from "../../html.ts";
import type { View, WebRequest } from "../../page.ts";

const KEY = "<key>";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** mcp-remote refuses plain http except on loopback unless told it is a trusted network. */
function bridgeArgs(url: string): string[] {
  const { protocol, hostname } = new URL(url);
  const allowHttp = protocol === "http:" && !LOOPBACK.has(hostname);
  return ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}", ...(allowHttp ? ["--allow-http"] : [])];
}

function code(text: string, label: string): Html {
  return html`<pre class="docs-code" tabindex="0" aria-label="${label}"><code>${text}</code></pre>`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function mcpPage(web: WebRequest): Promise<View> {
  const url = `${web.deps.config.publicBaseUrl}/api/mcp`;
  const desktop = { mcpServers: { shop: { command: "npx", args: bridgeArgs(url), env: { AUTH_HEADER: `Bearer ${KEY}` } } } };
  const cursor = { mcpServers: { shop: { url, headers: { Authorization: `Bearer ${KEY}` } } } };
  return Promise.resolve({
    title: "Connect an MCP client",
    description: "Connect Claude, ChatGPT, Cursor or the MCP Inspector to the shop's tools over MCP.",
    main: html`<div class="docs-prose">
<h1>Connect an MCP client</h1>
<p class="docs-lead">Every tool of the <a href="/docs">API reference</a> is also an MCP tool, with the same name,
schemas, keys, scopes and rate limits, at one Streamable HTTP endpoint:</p>
${code(url, "MCP endpoint")}
<ul>
<li><strong>Transport:</strong> Streamable HTTP, stateless (no session, no event stream; every answer is one JSON body).
Protocol 2026-07-28 and the 2025 revisions back to 2024-11-05.</li>
<li><strong>Auth:</strong> <code>Authorization: Bearer ${KEY}</code>, a key made in the admin under
<a href="/admin/api-keys">API keys</a> or with <code>npx shop keys create --name "Assistant" --scopes catalog:read,orders:read</code>.
<code>tools/list</code> shows only the tools the key may call; without a key that is <code>products.search</code>,
<code>products.get</code> and <code>categories.list</code>. An invalid key answers 401.</li>
<li><strong>Errors:</strong> a refused call (missing scope, invalid input, a shop rule) comes back as a result with
<code>isError: true</code> holding the same RFC 9457 problem the REST door answers, so a model can read why.</li>
</ul>

<h2 id="claude-code">Claude Code</h2>
<p>Claude Code speaks Streamable HTTP itself and sends the header you give it:</p>
${code(`claude mcp add --transport http shop ${url} \\
  --header "Authorization: Bearer ${KEY}"`, "Claude Code command")}

<h2 id="claude-desktop">Claude Desktop</h2>
<p>Claude Desktop's custom connectors take a URL and sign in over OAuth, which the shop serves: give
<code>${url}</code> (staff: the admin's sign-in) or <code>${url}?as=shopper</code> (a customer: the e-mail code, their
own orders, cart and returns). With a key instead, run the <code>mcp-remote</code> bridge as a local server in <code>claude_desktop_config.json</code> (Settings →
Developer → Edit Config). The header's value lives in <code>env</code>: some clients split arguments that contain a
space, so the argument itself has none.</p>
${code(json(desktop), "claude_desktop_config.json")}
<p>Needs Node.js for <code>npx</code>. Leave out <code>--header</code> and <code>env</code> to connect without a key
(the public catalogue tools only).</p>

<h2 id="cursor">Cursor</h2>
<p>In <code>~/.cursor/mcp.json</code> (or <code>.cursor/mcp.json</code> in a project), a server with a
<code>url</code> is a remote one; <code>headers</code> go with every request:</p>
${code(json(cursor), "Cursor mcp.json")}
<p>To keep the key out of the file, write <code>"Bearer \${env:SHOP_KEY}"</code> and set <code>SHOP_KEY</code> in
the environment Cursor starts from.</p>

<h2 id="chatgpt">ChatGPT</h2>
<p>ChatGPT connects to remote MCP servers in developer mode (Settings → Apps → Advanced settings → Developer mode;
then Create app with the URL above). It reaches the server from OpenAI's side, so the address must be public HTTPS.
Its authentication choices are OAuth or none; it cannot send an API key. Choose <strong>OAuth</strong>: staff sign
in with the admin's sign-in and consent to the scopes they give, a customer connecting <code>${url}?as=shopper</code>
signs in with the e-mail code (docs/mcp.md, "Connect Claude, ChatGPT or any OAuth client"). Otherwise:</p>
<ul>
<li>choose <strong>No authentication</strong>: ChatGPT then sees the public catalogue tools (search, products,
categories), enough for answering questions about the range;</li>
<li>for buying, agent platforms use the checkout doors made for them: the Agentic Commerce Protocol at
<code>/acp/checkout_sessions</code> (ChatGPT's Instant Checkout) and the Universal Commerce Protocol
(<code>/.well-known/ucp</code>);</li>
<li>for staff work with keys, use Claude Code, Claude Desktop or Cursor as above.</li>
</ul>

<h2 id="inspector">MCP Inspector</h2>
<p>To try the tools by hand, run <code>npx @modelcontextprotocol/inspector</code>, then in its page choose transport
<strong>Streamable HTTP</strong>, the URL above, and under <strong>Authentication</strong> the header
<code>Authorization</code> with the value <code>Bearer ${KEY}</code>; connect through its proxy (the default).
From the command line:</p>
${code(`npx @modelcontextprotocol/inspector --cli ${url} --transport http \\
  --header "Authorization: Bearer ${KEY}" --method tools/list`, "MCP Inspector command line")}

<h2 id="curl">Without a client</h2>
<p>The endpoint answers plain JSON-RPC, no handshake needed:</p>
${code(`curl -s ${url} -H "Authorization: Bearer ${KEY}" \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`, "curl")}
</div>`,
  });
}
