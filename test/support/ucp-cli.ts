// Shopify's reference agent client, @shopify/ucp-cli 0.9.0, as a test drives it: the CLI binary spawned with the
// pinned Node, a DIY profile pinned to one UCP version whose document the test serves, plain HTTP on loopback
// (UCP_TEST_ALLOW_INSECURE_LOCALHOST), its state in a temporary UCP_HOME. One test server per file.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { useServer, type TestServer } from "./server.ts";
import { serveProfiles, type ProfileServer } from "./ucp-profile.ts";

const CLI = path.resolve("node_modules/@shopify/ucp-cli/dist/bin.js");
const NODE = path.resolve("node_modules/.bin/node");
/** One CLI call may take this long (a whole flow is a dozen calls). */
const CALL_MS = 20_000;

export interface Envelope {
  business?: string;
  transport?: string;
  ucp?: { version?: string };
  result: Record<string, unknown> & { id?: string; status?: string; continue_url?: string };
}

export interface UcpCli {
  server: TestServer;
  /** The shop's public address (the business URL the CLI is given). */
  readonly shop: string;
  /** The agent's profile URL (served by the test). */
  readonly profile: string;
  /** Runs `ucp <args>` as an agent does and parses its JSON output; a failing command throws with what it printed. */
  ucp(args: string[]): Promise<Envelope>;
}

/**
 * A test server behind a pass-through proxy (the business profile names its endpoints by PUBLIC_BASE_URL, which must be
 * known before the server picks its port, so the proxy listens first and its address is the shop's), and a DIY agent
 * profile at `version` made by `ucp profile init`.
 */
export function useUcpCli(version: string): UcpCli {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ucp-cli-"));
  const served: Record<string, unknown> = {};
  let profiles: ProfileServer;
  let front: http.Server;
  let shop = "";
  beforeAll(async () => {
    front = http.createServer((req, res) => {
      const upstream = http.request(`${server.url}${req.url ?? "/"}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    shop = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  const { server } = useServer({ config: () => ({ ucpTestMode: true, ucpAllowLocalProfiles: true, publicBaseUrl: shop }) });
  const env = { ...process.env, UCP_HOME: home, UCP_TEST_ALLOW_INSECURE_LOCALHOST: "true", UCP_ON_ESCALATION: "", NO_COLOR: "1" };

  beforeAll(async () => {
    profiles = await serveProfiles(served);
    const url = `${profiles.base}/agent.json`;
    await new Promise<void>((resolve, reject) =>
      execFile(NODE, [CLI, "profile", "init", "--name", "agent", "--version", version, "--profile-url", url], { env, timeout: CALL_MS }, (error) => (error ? reject(error) : resolve())),
    );
    served["/agent.json"] = JSON.parse(fs.readFileSync(path.join(home, "profiles", "agent", "profile.json"), "utf8"));
  }, 60_000);
  afterAll(async () => {
    await profiles?.close();
    await new Promise((resolve) => front.close(resolve));
    fs.rmSync(home, { recursive: true, force: true });
  });

  return {
    server,
    get shop() {
      return shop;
    },
    get profile() {
      return `${profiles.base}/agent.json`;
    },
    ucp: (args) =>
      new Promise((resolve, reject) => {
        execFile(NODE, [CLI, ...args, "--business", shop, "--profile", "agent", "--format", "json"], { env, timeout: CALL_MS }, (error, stdout, stderr) => {
          if (error) return reject(new Error(`ucp ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
          try {
            resolve(JSON.parse(stdout) as Envelope);
          } catch {
            reject(new Error(`ucp ${args.join(" ")} printed no JSON:\n${stdout}\n${stderr}`));
          }
        });
      }),
  };
}
