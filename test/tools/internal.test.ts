// Internal tools (`internal: true`): the reads the agent doors' own plumbing needs. No door lists or serves them (REST,
// MCP, OpenAPI, the catalogue); server code calls them by their definition through the executor, which still checks
// the caller's scope and the input, and refuses a definition it did not register.
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/core/errors.ts";
import type { Caller } from "../../src/tools/context.ts";
import placedOrder from "../../src/tools/checkout/placed_order.ts";
import signingSecret from "../../src/tools/keys/acp_signing_secret.ts";
import rotateSigning from "../../src/tools/keys/rotate_signing.ts";
import importUcpSamples from "../../src/tools/import/ucp_samples.ts";
import seedDemo from "../../src/seed-demo-tool.ts";
import agentAccess from "../../src/tools/settings/agent_access.ts";
import pendingRefund from "../../src/tools/orders/pending_refund.ts";
import deliveryOptions from "../../src/tools/orders/delivery_options.ts";
import reopenPayment from "../../src/tools/orders/reopen_payment.ts";
import imageAlts from "../../src/tools/products/image_alts.ts";
import userGiftCards from "../../src/tools/user/list_gift_cards.ts";
import assistantContext from "../../src/tools/settings/assistant_context.ts";
import listGrants from "../../src/tools/keys/list_grants.ts";
import revokeGrant from "../../src/tools/keys/revoke_grant.ts";
import { findActiveKey } from "../../src/tools/keys/key-secrets.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { useServer } from "../support/server.ts";
import { poll } from "../support/wait.ts";

const { server, keys } = useServer({ keys: { agent: ["checkout:agent"], all: ["*"] } });
const INTERNAL = [placedOrder, signingSecret, rotateSigning, importUcpSamples, seedDemo, agentAccess, pendingRefund, deliveryOptions, reopenPayment, imageAlts, userGiftCards, assistantContext, listGrants, revokeGrant];
const reader = (...scopes: string[]): Caller => ({ kind: "system", actor: "system:test", scopes: new Set(scopes) });
const as = (...scopes: string[]) => ({ caller: reader(...scopes), door: "system" as const });
const executor = () => server.runtime.executor;

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => null, (failure: unknown) => failure);
  if (!(error instanceof ToolError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("internal tools", () => {
  it("are in no listing and behind no name: REST's list and call, MCP's tools/list, OpenAPI", async () => {
    const listed = await fetch(`${server.url}/api/v1/tools`, { headers: { Authorization: `Bearer ${keys.all}` } });
    const names = ((await listed.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);
    const openapi = await (await fetch(`${server.url}/api/v1/openapi.json`)).text();
    for (const tool of INTERNAL) {
      expect(names).not.toContain(tool.name);
      expect(openapi).not.toContain(tool.name);
      expect(server.runtime.registry.get(tool.name)).toBeUndefined();
      expect(server.runtime.registry.tools).not.toContain(tool);
      expect(server.runtime.registry.owns(tool)).toBe(true);
      const rest = await server.call(tool.name, tool.examples[0], { key: keys.all });
      expect(rest.status).toBe(404);
    }
    const mcp = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys.all}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    const text = await mcp.text();
    expect(text).toContain("settings.get_commerce");
    for (const tool of INTERNAL) expect(text).not.toContain(tool.name);
  });

  it("settings.agent_access reads the shop's agent access", async () => {
    expect(await executor().call(agentAccess, {}, as("settings:read"))).toEqual({ agentAccess: "open" });
    const setting = server.prisma.setting;
    // Written past the tools (as psql would): the process follows the trigger's notice (src/tools/shared/setting-rows.ts).
    await setting.create({ data: { section: "commerce", value: { agentAccess: "signed" } } });
    const read = () => executor().call(agentAccess, {}, as("settings:read"));
    expect(await poll(read, (result) => result.agentAccess === "signed", 5_000)).toEqual({ agentAccess: "signed" });
    await setting.delete({ where: { section: "commerce" } });
    await poll(read, (result) => result.agentAccess === "open", 5_000);
  });

  it("settings.assistant_context reads the commerce facts the assistants' instructions state", async () => {
    const defaults = { currency: "DKK", pricesIncludeVat: true, checkoutNeeds: "full_address", agentAccess: "open" };
    expect(await executor().call(assistantContext, {}, as("settings:read"))).toEqual(defaults);
    const setting = server.prisma.setting;
    await setting.create({ data: { section: "commerce", value: { currency: "EUR", checkoutNeeds: "country" } } });
    const stored = { currency: "EUR", pricesIncludeVat: false, checkoutNeeds: "country", agentAccess: "open" };
    const read = () => executor().call(assistantContext, {}, as("settings:read"));
    expect(await poll(read, (result) => result.currency === "EUR", 5_000)).toEqual(stored);
    await setting.delete({ where: { section: "commerce" } });
    await poll(read, (result) => result.currency === "DKK", 5_000);
    expect((await refusal(executor().call(assistantContext, {}, as("orders:read")))).status).toBe(403);
  });

  it("keys.acp_signing_secret reads a key's ACP secret, null when it has none", async () => {
    const key = (await findActiveKey(server.prisma, keys.agent))!;
    expect(await executor().call(signingSecret, { keyId: key.id }, as("keys:read"))).toEqual({ secret: null });
    await server.prisma.apiKey.update({ where: { id: key.id }, data: { acpSigningSecret: "platform-secret-0123456789" } });
    expect(await executor().call(signingSecret, { keyId: key.id }, as("keys:read"))).toEqual({ secret: "platform-secret-0123456789" });
  });

  it("keys.rotate_signing refuses a caller without keys:write and a revoke that is not a boolean, rotating nothing", async () => {
    const before = await server.prisma.signingKey.findMany({ orderBy: { kid: "asc" } });
    expect((await refusal(executor().call(rotateSigning, {}, as("keys:read")))).status).toBe(403);
    expect((await refusal(executor().call(rotateSigning, { revoke: "yes" } as never, as("keys:write")))).status).toBe(400);
    expect(await server.prisma.signingKey.findMany({ orderBy: { kid: "asc" } })).toEqual(before);
  });

  it("setup.seed_demo and import.ucp_samples refuse a caller without settings:write, and leave the demo shop as it is", async () => {
    expect((await refusal(executor().call(seedDemo, {}, as("catalog:read")))).status).toBe(403);
    expect((await refusal(executor().call(importUcpSamples, importUcpSamples.examples[0]!, as("catalog:read")))).status).toBe(403);
    // The demo shop was seeded: a second seed changes nothing, an import is refused (it fills an empty shop only).
    expect(await executor().call(seedDemo, {}, as("settings:write"))).toEqual({ seeded: false });
    const error = await refusal(executor().call(importUcpSamples, importUcpSamples.examples[0]!, as("settings:write")));
    expect([error.status, error.code]).toEqual([422, "shop_not_empty"]);
  });

  it("checkout.placed_order answers null for an order no checkout session placed", async () => {
    const prisma = server.prisma;
    const order = await prisma.order.findFirstOrThrow({ orderBy: { id: "asc" } });
    expect(await prisma.checkoutSession.count({ where: { orderId: order.id } })).toBe(0);
    expect(await executor().call(placedOrder, { orderId: order.id }, as("orders:read"))).toBeNull();
  });

  it("orders.pending_refund sums an order's open refund tasks only, 404 for an unknown order", async () => {
    const prisma = server.prisma;
    const order = await prisma.order.findFirstOrThrow({ orderBy: { id: "desc" } });
    const before = (await executor().call(pendingRefund, { orderId: order.id }, as("orders:read"))).pendingDkk;
    await prisma.refundTask.create({ data: { orderId: order.id, amountDkk: 1200n } });
    await prisma.refundTask.create({ data: { orderId: order.id, amountDkk: 800n, status: "done" } });
    expect(await executor().call(pendingRefund, { orderId: order.id }, as("orders:read"))).toEqual({ orderId: order.id, pendingDkk: before + 1200 });
    expect((await refusal(executor().call(pendingRefund, { orderId: "no-such-order" }, as("orders:read")))).status).toBe(404);
    expect((await refusal(executor().call(pendingRefund, { orderId: order.id }, as("catalog:read")))).status).toBe(403);
  });

  it("orders.reopen_payment opens a card payment only for an unpaid Stripe order: 422 not_payable otherwise, 404, 403", async () => {
    // The success path (a new Stripe session from the payment page, the old one closed) is in test/commerce/webhook.test.ts.
    const prisma = server.prisma;
    const order = await prisma.order.findFirstOrThrow({ orderBy: { id: "desc" } });
    const refused = await refusal(executor().call(reopenPayment, { orderId: order.id }, as("orders:write")));
    expect([refused.status, refused.code]).toEqual([422, "not_payable"]);
    expect((await refusal(executor().call(reopenPayment, { orderId: "no-such-order" }, as("orders:write")))).status).toBe(404);
    expect((await refusal(executor().call(reopenPayment, { orderId: order.id }, as("orders:read")))).status).toBe(403);
    expect((await refusal(executor().call(reopenPayment, { orderId: "" }, as("orders:write")))).status).toBe(400);
  });

  it("orders.delivery_options prices each method for the order (its own keeps its price), shops nearest first; 404 unknown", async () => {
    const prisma = server.prisma;
    const order = await prisma.order.findFirstOrThrow({ orderBy: { id: "asc" } });
    await prisma.order.update({ where: { id: order.id }, data: { subtotalDkk: 10_000n, discountDkk: 0n, shippingDkk: 1234n, shippingZip: "8000", deliveryMethodId: "gls-pakkeshop" } });
    const options = await executor().call(deliveryOptions, { orderId: order.id }, as("orders:read"));
    expect(options.map((option) => [option.id, option.kind, option.priceDkk])).toEqual([["postnord-hjem", "home", 4900], ["postnord-pakkeshop", "pickup", 3900], ["gls-pakkeshop", "pickup", 1234]]);
    expect(options[0]!.pickupPoints).toEqual([]);
    expect(options[1]!.pickupPoints[0]).toMatchObject({ id: "pn-aarhus-foetex", zip: "8000" });
    expect(options[2]!.pickupPoints.every((point) => point.id.startsWith("gls-"))).toBe(true);
    expect((await refusal(executor().call(deliveryOptions, { orderId: "no-such-order" }, as("orders:read")))).status).toBe(404);
    expect((await refusal(executor().call(deliveryOptions, { orderId: order.id }, as("catalog:read")))).status).toBe(403);
  });

  it("products.image_alts refuses drafts to a catalogue reader and 404s an unknown product", async () => {
    expect((await refusal(executor().call(imageAlts, { slug: "findes-ikke" }, as("catalog:read")))).status).toBe(404);
    const product = await server.prisma.product.findFirstOrThrow({ where: { deletedAt: null, draft: false }, orderBy: { slug: "asc" } });
    expect((await refusal(executor().call(imageAlts, { slug: product.slug, drafts: true }, as("catalog:read")))).status).toBe(403);
  });

  it("user.list_gift_cards refuses a caller with no signed-in customer", async () => {
    const error = await refusal(executor().call(userGiftCards, {}, as("customer:read")));
    expect([error.status, error.code]).toEqual([422, "no_customer"]);
  });

  it("check the caller's scope and the input like any tool", async () => {
    expect((await refusal(executor().call(agentAccess, {}, as("orders:read")))).status).toBe(403);
    expect((await refusal(executor().call(signingSecret, { keyId: "" }, as("keys:read")))).status).toBe(400);
    const unknownField = JSON.parse('{"orderId":"x","extra":1}') as { orderId: string };
    expect((await refusal(executor().call(placedOrder, unknownField, as("orders:read")))).status).toBe(400);
  });

  it("run only the definition the executor registered", async () => {
    const lookalike = defineTool({ ...agentAccess });
    await expect(executor().call(lookalike, {}, as("settings:read"))).rejects.toThrow(/not a tool this executor registered/);
    expect(createRegistry().owns(lookalike)).toBe(false);
  });
});
