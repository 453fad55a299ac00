// The doors that load with their first request (src/http/lazy.ts): the MCP door, the UCP and ACP doors, the web pages
// and the OAuth server's oidc-provider each answer their very first request, also when several arrive at once, and a
// door's loader runs once, only for its own paths, and again after a failed load.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import { describe, expect, it } from "vitest";
import { lazyDoor, lazyHandler } from "../../src/http/lazy.ts";
import { rpc } from "../support/mcp.ts";
import { useServer } from "../support/server.ts";

const { server } = useServer();

describe("the first request to each lazily loaded door", () => {
  it("is answered, also when the first requests to every door arrive at once", async () => {
    const get = (path: string) => fetch(`${server.url}${path}`);
    const round = () =>
      Promise.all([
        rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/list" }),
        rpc(server, { jsonrpc: "2.0", id: 2, method: "tools/list" }),
        get("/.well-known/ucp"),
        get("/ucp/no-such-path"),
        get("/.well-known/acp.json"),
        get("/acp/no-such-path"),
        get("/"),
        get("/admin"),
        get("/.well-known/openid-configuration"),
      ]);
    for (const turn of [1, 2]) {
      const [mcp1, mcp2, ucp, ucpMissing, acp, acpMissing, home, admin, oauth] = await round();
      for (const mcp of [mcp1, mcp2]) {
        expect(mcp.status, `turn ${turn}: ${mcp.text}`).toBe(200);
        expect((mcp.body.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
      }
      expect(ucp.status).toBe(200);
      expect(((await ucp.json()) as { ucp?: unknown }).ucp).toBeDefined();
      // The door's own 404 answer (a problem in its shape), not the web pages' 404 page.
      expect(ucpMissing.status).toBe(404);
      expect(ucpMissing.headers.get("content-type")).toMatch(/json/);
      expect(acp.status).toBe(200);
      expect(acpMissing.status).toBe(404);
      expect(acpMissing.headers.get("content-type")).toMatch(/json/);
      expect(home.status).toBe(200);
      expect(home.headers.get("content-type")).toMatch(/text\/html/);
      // The admin's refusal of a visitor without a session (a problem for a client that asked for no HTML).
      expect(admin.status).toBe(401);
      expect(oauth.status).toBe(200);
      expect(((await oauth.json()) as { issuer?: string }).issuer).toBeTruthy();
    }
  });
});

describe("lazyHandler and lazyDoor", () => {
  async function serve(handler: RequestHandler): Promise<{ get: (path: string) => Promise<Response>; close: () => Promise<void> }> {
    const app = express();
    app.use(handler);
    app.use((_req, res) => void res.status(404).send("passed by"));
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).send(error.message));
    const listener = http.createServer(app).listen(0, "127.0.0.1");
    await new Promise((resolve) => listener.once("listening", resolve));
    const { port } = listener.address() as AddressInfo;
    return {
      get: (path) => fetch(`http://127.0.0.1:${port}${path}`),
      close: () => new Promise((resolve) => listener.close(() => resolve())),
    };
  }

  it("loads once for the requests that arrive together, and only for the door's paths", async () => {
    let loads = 0;
    const door = lazyDoor(/^\/door(\/|$)/, async () => {
      loads += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return (_req, res) => void res.send("door");
    });
    const app = await serve(door);
    try {
      expect(await (await app.get("/elsewhere")).text()).toBe("passed by");
      expect(door.loaded()).toBe(false);
      const answers = await Promise.all([app.get("/door"), app.get("/door/a"), app.get("/door/b")]);
      expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual(["door", "door", "door"]);
      expect(await (await app.get("/door")).text()).toBe("door");
      expect(loads).toBe(1);
      expect(door.loaded()).toBe(true);
    } finally {
      await app.close();
    }
  });

  it("answers a failed load with the error and loads again on the next request", async () => {
    let loads = 0;
    const handler = lazyHandler(async () => {
      loads += 1;
      if (loads === 1) throw new Error("could not load");
      return (_req, res) => void res.send("loaded");
    });
    const app = await serve(handler);
    try {
      const failed = await app.get("/");
      expect(failed.status).toBe(500);
      expect(await failed.text()).toBe("could not load");
      expect(await (await app.get("/")).text()).toBe("loaded");
      expect(loads).toBe(2);
    } finally {
      await app.close();
    }
  });
});
