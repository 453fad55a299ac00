// analytics.cancel_reasons through real HTTP: sessions canceled per agent platform (the API key's name), with the
// reasons their intent traces gave — through checkout.cancel's intentTrace and ACP's cancel intent_trace alike.
import { beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../../src/tools/keys/key-secrets.ts";
import { expectOk, expectRejected, expectScopeMatrix } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { openSession } from "../checkout/helpers.ts";

const { server, keys: { key } } = useServer({ config: { ucpTestMode: true }, keys: { key: ["analytics:read"] } });

type Reasons = { fromDate: string; toDate: string; platforms: Array<{ platform: string; protocol: string; canceled: number; withReason: number; reasons: Array<{ reasonCode: string; count: number }> }> };
const reasons = async (input: object) => expectOk<Reasons>(server, "analytics.cancel_reasons", await server.call("analytics.cancel_reasons", input, { key }));

let ALPHA = "";
let BETA = "";
beforeAll(async () => {
  ALPHA = (await createKey(server.prisma, "Alpha Agents", ["checkout:agent"])).secret;
  BETA = (await createKey(server.prisma, "Beta Platform", ["checkout:agent"])).secret;
  const cancel = async (agent: string, intentTrace?: object) => {
    const { view } = await openSession(server, agent);
    expectOk(server, "checkout.cancel", await server.call("checkout.cancel", { id: view.id, ...(intentTrace ? { intentTrace } : {}) }, { key: agent }));
    return view.id;
  };
  const stored = await cancel(ALPHA, { reasonCode: "shipping_cost", summary: "Fragten var for dyr" });
  expect((await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: stored } })).intentTrace).toEqual({ reasonCode: "shipping_cost", summary: "Fragten var for dyr" });
  await cancel(ALPHA, { reasonCode: "shipping_cost" });
  await cancel(ALPHA, { reasonCode: "comparison" });
  await cancel(ALPHA);
  // Through the ACP door: its intent_trace is stored as the same trace.
  const { view } = await openSession(server, BETA);
  const response = await fetch(`${server.url}/acp/checkout_sessions/${view.id}/cancel`, {
    method: "POST",
    headers: { Authorization: `Bearer ${BETA}`, "API-Version": "2026-04-17", "Content-Type": "application/json", "Idempotency-Key": "cancel-beta-1" },
    body: JSON.stringify({ intent_trace: { reason_code: "price_sensitivity", trace_summary: "Found it cheaper", metadata: { source: "test" } } }),
  });
  expect(response.status).toBe(200);
  expect((await server.prisma.checkoutSession.findUniqueOrThrow({ where: { id: view.id } })).intentTrace).toEqual({ reasonCode: "price_sensitivity", summary: "Found it cheaper" });
});

describe("analytics.cancel_reasons", () => {
  it("counts canceled sessions per agent platform with their reasons, most canceled first", async () => {
    const { platforms } = await reasons({});
    expect(platforms.filter((row) => row.platform === "Alpha Agents" || row.platform === "Beta Platform")).toEqual([
      { platform: "Alpha Agents", protocol: "shop", canceled: 4, withReason: 3, reasons: [{ reasonCode: "shipping_cost", count: 2 }, { reasonCode: "comparison", count: 1 }] },
      { platform: "Beta Platform", protocol: "shop", canceled: 1, withReason: 1, reasons: [{ reasonCode: "price_sensitivity", count: 1 }] },
    ]);
  });

  it("counts only the range asked for", async () => {
    expect((await reasons({ fromDate: "2020-01-01", toDate: "2020-01-31" })).platforms).toEqual([]);
  });

  it("needs analytics:read", async () => {
    await expectScopeMatrix(server, "analytics.cancel_reasons", {});
  });

  it("rejects bad input with a 400 problem, and a bad intent trace on cancel", async () => {
    await expectRejected(server, "analytics.cancel_reasons", key, [{ fromDate: "yesterday" }, { fromDate: "2025-07-31", toDate: "2025-07-01" }, { platform: "x" }]);
    const { view } = await openSession(server, ALPHA);
    await expectRejected(server, "checkout.cancel", ALPHA, [{ id: view.id, intentTrace: { reasonCode: "bored" } }, { id: view.id, intentTrace: { reasonCode: "other", extra: 1 } }]);
  });
});
