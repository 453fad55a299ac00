// DNS-rebinding protection and CORS on /api/mcp, and the official conformance tool against a loopback-bound server.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { rpc } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer({ config: { host: "127.0.0.1", mcpAllowedOrigins: ["https://agent.example.com"] } });

const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("the /api/mcp guard", () => {
  it("refuses a foreign Origin with 403 and a JSON-RPC error, and lets loopback, configured and absent origins through", async () => {
    const evil = await rpc(server, list, { headers: { origin: "http://evil.example.com" } });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/Forbidden/) } });
    expect((await rpc(server, list, { headers: { origin: "null" } })).status).toBe(403);
    for (const origin of ["http://localhost:6274", "https://agent.example.com"]) {
      const allowed = await rpc(server, list, { headers: { origin } });
      expect(allowed.status, origin).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(origin);
      expect(allowed.headers.get("access-control-expose-headers")).toMatch(/RateLimit-Remaining/);
    }
    expect((await rpc(server, list)).status).toBe(200);
  });

  it("refuses a foreign Host on a loopback-bound server (DNS rebinding), with or without an Origin", async () => {
    const port = new URL(server.url).port;
    const { request } = await import("node:http");
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/api/mcp", method: "POST", headers: { host, "content-type": "application/json" } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end(JSON.stringify(list));
      });
    expect(await post("evil.example.com")).toBe(403);
    expect(await post(`localhost:${port}`)).toBe(200);
  });

  it("answers CORS preflights for allowed origins with the MCP headers, and refuses others", async () => {
    const preflight = (origin: string, headers: string) =>
      fetch(`${server.url}/api/mcp`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": headers } });
    const ok = await preflight("https://agent.example.com", "authorization, content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://agent.example.com");
    expect(ok.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(ok.headers.get("access-control-allow-headers")).toMatch(/authorization.*mcp-protocol-version.*mcp-param-region/s);
    expect((await preflight("http://evil.example.com", "authorization")).status).toBe(403);
    expect((await preflight("https://agent.example.com", "x-secret-header")).status).toBe(403);
  });
});

describe("the official MCP conformance tool", () => {
  it("passes server-initialize, ping, tools-list and dns-rebinding-protection", { timeout: 120_000 }, async () => {
    const url = `${server.url.replace("127.0.0.1", "localhost")}/api/mcp`;
    const results: string[] = [];
    for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]) {
      const { stdout } = await promisify(execFile)(process.execPath, ["node_modules/@modelcontextprotocol/conformance/dist/index.js", "server", "--url", url, "--scenario", scenario], { timeout: 60_000 }).catch(
        (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
      );
      results.push(`${scenario}: ${/FAILURE/.test(stdout) || !/SUCCESS/.test(stdout) ? `FAILED\n${stdout}` : "ok"}`);
    }
    expect(results.join("\n")).toBe(["server-initialize: ok", "ping: ok", "tools-list: ok", "dns-rebinding-protection: ok"].join("\n"));
  });
});
