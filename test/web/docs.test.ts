// The developer docs over real HTTP: /docs (the API reference's page, its Swagger UI assets from this server under
// the strict CSP) and /docs/mcp (the connection guide with the shop's own address), plus the area tags they group by.
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../src/web/headers.ts";
import { signedInClient } from "../support/admin.ts";
import { startServer, useServer } from "../support/server.ts";

const PUBLIC_BASE_URL = "https://butik.example.dk";
const { server } = useServer({ config: { publicBaseUrl: PUBLIC_BASE_URL } });

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The JSON of the page's code block labelled `label`, parsed. */
function snippet(html: string, label: string): unknown {
  const match = new RegExp(`<pre class="docs-code" tabindex="0" aria-label="${label}"><code>([^<]*)</code></pre>`).exec(html);
  if (!match) throw new Error(`no code block "${label}"`);
  return JSON.parse(match[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&amp;/g, "&"));
}

/** Every address the page loads (scripts, stylesheets, icons): the src and href of its script and link tags. */
function loadedUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
}

describe("GET /docs", () => {
  it("is the shop's page with the strict CSP, an introduction and the reference's mount point", async () => {
    const page = await get("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.text).toContain("<title>API reference – Nordlys Optik</title>");
    expect(page.text).toContain('data-api-reference data-spec="/api/v1/openapi.json"');
    // The facts an integrator needs before the reference: keys, scopes, errors, limits.
    for (const fact of ["Authorization: Bearer &lt;key&gt;", "npx shop keys create", 'href="/admin/api-keys"', "RFC 9457", "application/problem+json", 'as <code>errors</code> in <a href="/api/v1/tools">', "Retry-After", "Idempotency-Key", 'href="/docs/mcp"']) {
      expect(page.text).toContain(fact);
    }
    // No inline code or style: every script is a file of this server, and nothing carries a style attribute.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/\sstyle=/);
  });

  it("loads only this server's assets: the docs script and stylesheet, served for a year with their gzip form", async () => {
    const page = await get("/docs");
    const urls = loadedUrls(page.text);
    expect(urls.every((url) => url.startsWith("/") && !url.startsWith("//"))).toBe(true);
    const script = urls.find((url) => /^\/assets\/docs\.[0-9a-f]{12}\.js$/.test(url));
    const style = urls.find((url) => /^\/assets\/docs\.[0-9a-f]{12}\.css$/.test(url));
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    expect(page.text).toContain(`<script type="module" src="${script}"></script>`);

    const js = await get(script!, { "accept-encoding": "gzip" });
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(js.headers.get("content-encoding")).toBe("gzip");
    // Swagger UI itself is in the bundle, with the page's own start-up code (a 1.5 MB text: no diff on failure).
    expect(js.text.includes("SwaggerUIBundle")).toBe(true);
    expect(js.text.includes("data-api-reference")).toBe(true);

    const css = await get(style!);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(css.text.includes(".swagger-ui")).toBe(true);
    expect(css.text.includes(".docs-header")).toBe(true);
    // Nothing in the stylesheet loads from elsewhere (fonts, images); data: images are allowed by img-src.
    for (const [, url] of css.text.matchAll(/url\(\s*["']?([^"')]+)/g)) expect(url).toMatch(/^(data:|\/|#)/);
  });

  it("is linked from the admin's side bar and its API keys page", async () => {
    const staff = await signedInClient(server, "udvikler@nordlys.dk", ["keys:read"]);
    const page = await staff.get("/admin/api-keys");
    expect(page.status).toBe(200);
    expect(page.html).toContain('<a class="admin-storefront" href="/docs">API-dokumentation</a>');
    expect(page.html).toContain('<a href="/docs/mcp">MCP-klienter</a>');
  });
});

describe("the OpenAPI document the reference shows", () => {
  it("describes every area tag, and declares Bearer auth that every keyed tool asks for", async () => {
    const { text } = await get("/api/v1/openapi.json");
    const document = JSON.parse(text) as {
      tags: Array<{ name: string; description?: string }>;
      paths: Record<string, { post: { tags: string[]; security: Array<Record<string, string[]>>; "x-service-anonymous-read": boolean } }>;
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
    };
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const areas = new Set(Object.values(document.paths).map(({ post }) => post.tags[0]!));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...areas].sort());
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/^[A-Z].{20,}\.$/);
    for (const { post } of Object.values(document.paths)) {
      expect(post.security.some((requirement) => "bearerAuth" in requirement)).toBe(true);
      // Only the anonymous reads may also be called without a key.
      expect(post.security.some((requirement) => Object.keys(requirement).length === 0)).toBe(post["x-service-anonymous-read"]);
    }
  });
});

describe("GET /docs/mcp", () => {
  it("shows the endpoint and every client's configuration with the shop's PUBLIC_BASE_URL", async () => {
    const page = await get("/docs/mcp");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(page.text).toContain("<title>Connect an MCP client – Nordlys Optik</title>");
    const endpoint = `${PUBLIC_BASE_URL}/api/mcp`;
    expect(page.text).toContain(`<code>${endpoint}</code>`);
    expect(page.text).toContain(`claude mcp add --transport http shop ${endpoint} \\\n  --header &quot;Authorization: Bearer &lt;key&gt;&quot;`);
    expect(page.text).toContain(`npx @modelcontextprotocol/inspector --cli ${endpoint} --transport http \\\n  --header &quot;Authorization: Bearer &lt;key&gt;&quot; --method tools/list`);
    // Claude Desktop through mcp-remote: the header's value in env, no space inside the argument; https needs no --allow-http.
    expect(snippet(page.text, "claude_desktop_config.json")).toEqual({
      mcpServers: { shop: { command: "npx", args: ["-y", "mcp-remote", endpoint, "--header", "Authorization:${AUTH_HEADER}"], env: { AUTH_HEADER: "Bearer <key>" } } },
    });
    expect(snippet(page.text, "Cursor mcp.json")).toEqual({ mcpServers: { shop: { url: endpoint, headers: { Authorization: "Bearer <key>" } } } });
    // ChatGPT: honest about OAuth.
    expect(page.text).toContain("No authentication");
    expect(page.text).toContain("/acp/checkout_sessions");
  });

  it("tells mcp-remote to allow plain http on a non-loopback address only", async () => {
    const lan = await startServer({ publicBaseUrl: "http://butik.lan:3000" });
    try {
      const page = await fetch(`${lan.url}/docs/mcp`).then((response) => response.text());
      expect(snippet(page, "claude_desktop_config.json")).toMatchObject({
        mcpServers: { shop: { args: ["-y", "mcp-remote", "http://butik.lan:3000/api/mcp", "--header", "Authorization:${AUTH_HEADER}", "--allow-http"] } },
      });
    } finally {
      await lan.close();
    }
  });
});
