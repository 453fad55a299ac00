// checkout.create: open a checkout session with lines priced from the catalogue, and whatever buyer and shipping data is known.
import { z } from "zod";
import { toJson } from "../../core/json.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { AgentCheckoutOff, getCommerce } from "../settings/commerce.ts";
import { defineTool, WRITE } from "../tool.ts";
import { withDestination } from "./destinations.ts";
import { buyer, consentRecord, destination, destinationId, discountCodes, lineInput, pickupInput, PROTOCOLS, sessionView } from "./schemas.ts";
import { columns, newSessionId, ownerOf, priceSession, resolveLines, SESSION_TTL_MS, shopCurrency, type SessionState } from "./sessions.ts";

export default defineTool({
  name: "checkout.create",
  description:
    "Open a checkout session at catalogue prices, for its creator only; ready_for_complete once lines, buyer e-mail " +
    "and destination are set. Returns the session {id, status, currency, lines, buyer, fulfillment, discounts, totals, " +
    "messages (what is missing), payment, orderId, expiresAt, …}.",
  errors: [
    { status: 403, code: "agent_checkout_off", when: "the shop sells to no AI agents now" },
    { status: 422, code: "item_unavailable" },
    { status: 422, code: "variant_required" },
  ],
  input: z.strictObject({
    lines: z.array(lineInput).min(1).max(50).describe("What to buy."),
    buyer: buyer.optional().describe("Who buys."),
    destination: destination.optional().describe("Where to ship."),
    destinationId: destinationId.optional(),
    fulfillmentOptionId: z.string().min(1).max(100).nullable().optional().describe("Id from fulfillment.options."),
    discountCodes: discountCodes.optional(),
    ...pickupInput,
    consentRecord: consentRecord.optional().describe("Set by protocol doors."),
    protocol: z.enum(PROTOCOLS).default("shop").describe("Set by protocol doors."),
    protocolVersion: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional().describe("Set by protocol doors."),
  }),
  output: sessionView,
  scope: "checkout:agent",
  anonymous: true,
  audited: true,
  annotations: WRITE,
  examples: [{ lines: [{ itemId: "p000007342", quantity: 1 }] }],
  async handler(input, ctx) {
    // Every caller of the checkout tools is an agent: the shop's switch for agent checkouts holds on every door.
    if ((await getCommerce(ctx.db)).agentAccess === "off") throw new AgentCheckoutOff();
    const now = ctx.now();
    const lines = await resolveLines(ctx.db, input.lines);
    const state: SessionState = {
      id: newSessionId(),
      status: "incomplete",
      currency: await shopCurrency(ctx.db),
      lines,
      buyer: input.buyer ?? null,
      fulfillment: await withDestination(
        ctx,
        input.buyer ?? null,
        { destination: null, selectedOptionId: input.fulfillmentOptionId ?? null, ...(input.offerPickup ? { pickup: true } : {}), ...(input.pickupPointId ? { pickupPointId: input.pickupPointId } : {}) },
        input,
      ),
      discountCodes: input.discountCodes ?? [],
      payment: null,
      orderId: null,
      protocol: input.protocol,
      protocolVersion: input.protocolVersion ?? null,
      // The agent a protocol door identified; a plain tool call's MCP client or assistant is credited on the order instead.
      agentName: input.protocol === "shop" ? null : (ctx.caller.agent ?? null),
      agentProfile: input.protocol === "shop" ? null : (ctx.caller.agentProfile ?? null),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      createdAt: now,
      updatedAt: now,
    };
    const view = await priceSession(ctx, state);
    await ctx.db.checkoutSession.create({
      data: {
        id: state.id,
        owner: ownerOf(ctx),
        currency: state.currency,
        protocol: state.protocol,
        protocolVersion: state.protocolVersion,
        agentName: state.agentName,
        agentProfile: state.agentProfile,
        // Order events go where the agent's profile said at creation, so completing never fetches a profile.
        webhookUrl: input.protocol === "shop" ? null : (ctx.caller.agentWebhookUrl ?? null),
        ...(input.consentRecord ? { consent: toJson(input.consentRecord) as Prisma.InputJsonValue } : {}),
        expiresAt: state.expiresAt,
        createdAt: now,
        updatedAt: now,
        ...columns(state, view),
      },
    });
    await ctx.audit({ subjectType: "checkout_session", subjectId: state.id, before: null, after: view });
    return view;
  },
});
