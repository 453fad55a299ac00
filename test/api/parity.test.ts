// REST/MCP parity over the whole registry: every tool's examples, and its refusals (no key, wrong scope, unknown
// field), answer alike through both doors. Reads run through both doors on one server; writes run REST on one server
// and MCP on its twin (cloned from the same template), in the same order, so generated ids must correspond 1:1.
// Calls with the right key also carry the demo shopper's session cookie, so the cart.* and user.* examples act on her
// cart and orders like every other example acts on the demo shop: every example succeeds.
import { describe, expect, it } from "vitest";
import { compactAnnotations, openObjects } from "../../src/api/mcp-tools.ts";
import { describeTool } from "../../src/tools/describe.ts";
import { compactSchema } from "../../src/tools/compact-schema.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import { isScope } from "../../src/tools/scopes.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { DEMO } from "../../prisma/seed/history.ts";
import { Correspondence } from "../support/correspondence.ts";
import { mcpCall, rpc } from "../support/mcp.ts";
import type { CallResult, TestServer } from "../support/server.ts";
import { useServer } from "../support/server.ts";

const TOOLS = createRegistry().tools;
const twins = new Correspondence(true);

const { server: restSide } = useServer();
const { server: mcpTwin } = useServer();

const isRead = (tool: AnyTool) => tool.annotations.readOnlyHint && !tool.audited;
/**
 * The key and staff tools hand out (and manage holders of) only scopes their caller holds, so their examples, which
 * grant ordinary scopes, run with a `*` key; test/tools/keys and test/tools/staff prove their own scope alone suffices.
 */
/** The key a tool's examples run with: `*` for the key and staff tools (they grant scopes) and a system scope on no key. */
const rightScope = (tool: AnyTool) => (tool.name.startsWith("keys.") || tool.name.startsWith("staff.") || !isScope(tool.scope) ? "*" : tool.scope);

/** The demo session a tool's examples run in: the examples that empty a cart get a cart of their own. */
const demoSession = (tool: AnyTool) => (tool.name === "cart.checkout" || tool.name === "cart.clear" ? DEMO.checkoutSession : DEMO.session);
/**
 * Tools whose examples cannot succeed on a fresh demo shop, with the status and code both doors answer alike: signing in
 * needs a code only its e-mail tells (and a door that sets the new cookie; its own test covers MCP's refusal).
 */
const REFUSED_EXAMPLES: Record<string, [number, string]> = {
  "user.verify_login_code": [422, "invalid_code"],
  // A checkout session id is random and belongs to its creator: on a fresh shop the examples name none (404 alike).
  "checkout.get": [404, "not_found"],
  "checkout.update": [404, "not_found"],
  "checkout.complete": [404, "not_found"],
  "checkout.cancel": [404, "not_found"],
  "checkout.get_order": [404, "not_found"],
  // Releasing needs an approved exchange past its deadline; the demo shop holds none (its returns are settled).
  "returns.release_exchange": [422, "illegal_transition"],
};
const cookieOf = (server: TestServer, session: string) => `shop_session=${server.runtime.sessions.sign(session)}`;

function expectAlike(label: string, rest: CallResult, mcp: CallResult, correspondence: Correspondence): void {
  if (rest.status !== mcp.status) throw new Error(`${label}: REST ${rest.status} ${JSON.stringify(rest.body)} vs MCP ${mcp.status} ${JSON.stringify(mcp.body)}`);
  if (rest.status >= 500) throw new Error(`${label}: both doors failed with ${rest.status}: ${JSON.stringify(rest.body)}`);
  try {
    correspondence.check(rest.body, mcp.body);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`, { cause: error });
  }
}

describe("the parity comparison", () => {
  const id = (n: number) => `c${String(n).padStart(24, "0")}`;
  it("lets generated ids, tokens and clock readings differ only consistently, and nothing else", () => {
    const twin = new Correspondence(true);
    twin.check({ id: id(1), url: `/orders/${id(1)}/pay?token=Ab3_-xYz9Q`, at: "2026-01-01T10:00:00.000Z" }, { id: id(2), url: `/orders/${id(2)}/pay?token=Qz7-_kLm2W`, at: "2026-01-01T10:00:01.500Z" });
    twin.check([id(1), id(3)], [id(2), id(3)]);
    expect(() => twin.check(id(1), id(4))).toThrow(/already paired/);
    expect(() => twin.check(id(3), id(2))).toThrow(/already paired/);
    expect(() => twin.check({ n: 1 }, { n: 2 })).toThrow(/\$\.n/);
    expect(() => twin.check({ a: 1 }, { a: 1, b: 2 })).toThrow();
    expect(() => twin.check(["x"], ["x", "y"])).toThrow();
    expect(() => twin.check("Mette Hansen", "Mette Jensen")).toThrow();
    expect(() => twin.check("2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z")).toThrow();
    expect(() => twin.check(null, {})).toThrow();
    const oneServer = new Correspondence(false);
    oneServer.check({ at: "2026-01-01T10:00:00Z" }, { at: "2026-01-01T10:00:00.250Z" });
    expect(() => oneServer.check(id(5), id(6))).toThrow();
    expect(() => oneServer.check("Ab3xYz9Q12", "Qz7kLm2W34")).toThrow();
  });
});

describe("REST/MCP parity", () => {
  it("walks the registry the servers run, and MCP lists every tool as the REST catalogue describes it", async () => {
    expect(restSide.runtime.registry.tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    const listing = await rpc(restSide, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { key: await restSide.key("*") });
    const tools = (listing.body.result as { tools: Array<Record<string, unknown> & { name: string }> }).tools;
    const catalogue = (await (await fetch(`${restSide.url}/api/v1/tools`)).json()) as { result: { tools: Array<ReturnType<typeof describeTool>> } };
    expect(tools.map((tool) => tool.name)).toEqual(catalogue.result.tools.map((tool) => tool.name));
    for (const [i, entry] of catalogue.result.tools.entries()) {
      const tool = tools[i]!;
      expect(tool.description, entry.name).toBe(entry.description);
      expect(tool.annotations, entry.name).toEqual(compactAnnotations(entry.annotations));
      // The listed input schema is the compact form of the catalogue's (test/api/mcp-listing.test.ts proves them equivalent).
      expect(tool.inputSchema, entry.name).toEqual(openObjects(compactSchema(entry.inputSchema, entry.name)));
      expect(tool.outputSchema, entry.name).toBeUndefined();
    }
  });

  for (const tool of TOOLS) {
    it(`${tool.name}: examples and refusals answer alike`, async () => {
      expect(tool.examples.length, "a tool needs examples (valid inputs against the demo shop)").toBeGreaterThan(0);
      for (const example of tool.examples) expect(tool.input.safeParse(example).success, JSON.stringify(example)).toBe(true);
      const read = isRead(tool);
      const mcpSide = read ? restSide : mcpTwin;
      const correspondence = read ? new Correspondence(false) : twins;
      const otherScope = tool.scope === "orders:read" ? "pages:read" : "orders:read";
      const keyPair = async (scope: string, withSession = false) => {
        const [rest, twin] = await Promise.all([restSide.key(scope), mcpTwin.key(scope)]);
        const session = demoSession(tool);
        return { rest, mcp: read ? rest : twin, ...(withSession ? { cookies: { rest: cookieOf(restSide, session), mcp: cookieOf(mcpSide, session) } } : {}) };
      };
      const right = await keyPair(rightScope(tool), true);
      const wrong = await keyPair(otherScope);
      const compare = async (label: string, input: unknown, keys?: { rest: string; mcp: string; cookies?: { rest: string; mcp: string } }) => {
        const rest = await restSide.call(tool.name, input, keys ? { key: keys.rest, ...(keys.cookies ? { cookie: keys.cookies.rest } : {}) } : {});
        const mcp = await mcpCall(mcpSide, tool.name, input, keys ? { key: keys.mcp, ...(keys.cookies ? { headers: { cookie: keys.cookies.mcp } } : {}) } : {});
        expectAlike(`${tool.name} ${label}`, rest, mcp, correspondence);
        return rest;
      };
      const audits = async (): Promise<[number, number]> => [
        await restSide.prisma.auditEntry.count(),
        await mcpTwin.prisma.auditEntry.count(),
      ];
      const [restBefore, mcpBefore] = await audits();

      const refusals = async () => {
        const anonymous = await compare("without a key", tool.examples[0], undefined);
        if (!tool.anonymous) expect(anonymous).toMatchObject({ status: 401, body: { code: "unauthorized" } });
        const scoped = await compare(`with a key for ${otherScope}`, tool.examples[0], wrong);
        if (!tool.anonymous) expect(scoped).toMatchObject({ status: 403, body: { code: "forbidden" } });
      };
      // An anonymous tool runs its first example without a key too, which may spend a one-time demo secret (the
      // invitation staff.set_password redeems): its examples proper go first, then the keyless calls answer alike.
      if (!tool.anonymous) await refusals();
      const invalid = await compare("with an unknown field", { __unknown: 1 }, right);
      expect(invalid).toMatchObject({ status: 400, body: { code: "invalid_input" } });
      for (const [i, example] of tool.examples.entries()) {
        const answer = await compare(`example ${i} ${JSON.stringify(example)}`, example, right);
        const refusal = REFUSED_EXAMPLES[tool.name];
        if (refusal) expect(answer).toMatchObject({ status: refusal[0], body: { code: refusal[1] } });
        else expect(answer.status, `example ${i} succeeds against the demo shop: ${JSON.stringify(answer.body)}`).toBe(200);
      }
      if (tool.anonymous) await refusals();

      const [restAfter, mcpAfter] = await audits();
      if (read) expect([restAfter, mcpAfter]).toEqual([restBefore, mcpBefore]);
      else {
        expect(mcpAfter - mcpBefore, "both doors wrote the same number of audit entries").toBe(restAfter - restBefore);
        const doors = await mcpTwin.prisma.auditEntry.findMany({ select: { door: true }, orderBy: { createdAt: "desc" }, take: mcpAfter - mcpBefore });
        expect(doors.every((entry) => entry.door === "mcp")).toBe(true);
      }
    });
  }
});
