// The storefront assistant after the sale, end to end over socket.io against the scripted model: a signed-in shopper
// cancels their own paid order, moves another one to a new address, returns a delivered line and exchanges another for
// a different variant, each only after pressing the approval button; a declined change changes nothing, and another
// customer's order stays out of reach.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { answerApprovals, connect, send, toolParts } from "../support/chat.ts";
import { fakeModel } from "../support/fake-model.ts";
import { useServer } from "../support/server.ts";
import { createCustomer, createOrder, sessionFor } from "../tools/orders/fixtures.ts";
import { shippedOrder } from "../tools/returns/fixtures.ts";

const fake = fakeModel();
const sockets: Socket[] = [];
const { server } = useServer({ config: { publicBaseUrl: "https://shop.example.dk" }, start: { model: fake.model } });
afterAll(async () => {
  for (const socket of sockets) socket.close();
});
beforeEach(() => fake.reset());
const prisma = () => server.prisma;
let n = 0;

async function signedInShopper() {
  const customer = await createCustomer(server, { email: `chat-efter-${++n}@example.dk`, name: "Mette Hansen" });
  const cookie = await sessionFor(server, customer.id);
  const socket = await connect(server, "storefront", { cookie });
  sockets.push(socket);
  return { customer, cookie, socket };
}

describe("storefront assistant after the sale", () => {
  it("cancels the shopper's own paid order as store credit once the shopper approves, and not when they decline", async () => {
    const { customer, socket } = await signedInShopper();
    const kept = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id });
    const order = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id });
    fake.on("fortryd").callTool("orders_cancel", { orderId: kept.id, reason: "Fortrudt" }).say("Ordren er ikke annulleret.");
    fake.on("annuller").callTool("orders_cancel", { orderId: order.id, reason: "Fortrudt", refundTo: "store_credit" }).say((req) => `Annulleret: ${req.lastToolResult<{ status: string }>()!.status}.`);

    const declined = await send(socket, "chat-cancel-no", "Jeg vil fortryde min ordre");
    expect(toolParts(declined.message)).toMatchObject([{ name: "orders_cancel", state: "approval-requested" }]);
    const no = await send(socket, "chat-cancel-no", [answerApprovals(declined.message!, false, "Jeg har fortrudt")]);
    expect(no.outcome).toBe("end");
    expect(toolParts(no.message).find((part) => part.name === "orders_cancel")!.state).toBe("output-denied");
    expect((await prisma().order.findUniqueOrThrow({ where: { id: kept.id } })).status).toBe("paid");

    const asked = await send(socket, "chat-cancel", "Annuller min ordre og giv mig et tilgodebevis");
    const [request] = toolParts(asked.message);
    expect(request).toMatchObject({ name: "orders_cancel", state: "approval-requested", input: { orderId: order.id, refundTo: "store_credit" } });
    expect((await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("paid");
    const approved = await send(socket, "chat-cancel", [answerApprovals(asked.message!, true)]);
    expect(toolParts(approved.message).find((part) => part.name === "orders_cancel")).toMatchObject({ state: "output-available", output: { id: order.id, status: "cancelled" } });
    expect(approved.text).toBe("Annulleret: cancelled.");
    const row = await prisma().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ status: "cancelled", refundedDkk: order.totalDkk });
    expect(await prisma().giftCard.findFirst({ where: { customerEmail: customer.email, source: "store_credit" } })).toMatchObject({ balanceDkk: order.totalDkk });
    const audit = await prisma().auditEntry.findFirstOrThrow({ where: { tool: "orders.cancel", subjectId: order.id } });
    expect(audit).toMatchObject({ door: "storefront-assistant", actor: expect.stringMatching(/^session:/) });
  });

  it("moves an unshipped order to a new address after approval; another customer's order is answered as unknown", async () => {
    const { customer, socket } = await signedInShopper();
    const order = await createOrder(server, { status: "processing", email: customer.email, userId: customer.id });
    const stranger = await createOrder(server, { status: "processing" });
    const address = { name: "Mette Hansen", address: "Vestergade 10", zip: "5000", city: "Odense C" };
    fake.on("flyt").callTool("orders_change_address", { orderId: order.id, ...address }).say("Adressen er ændret.");
    fake.on("fremmed").callTool("orders_change_address", { orderId: stranger.id, ...address }).say((req) => `Fejl: ${JSON.stringify(req.lastToolResult())}`);

    const asked = await send(socket, "chat-address", "Flyt min pakke til Vestergade 10, 5000 Odense C");
    expect(toolParts(asked.message)).toMatchObject([{ name: "orders_change_address", state: "approval-requested" }]);
    const done = await send(socket, "chat-address", [answerApprovals(asked.message!, true)]);
    expect(done.text).toBe("Adressen er ændret.");
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ shippingAddress: "Vestergade 10", shippingZip: "5000" });

    const foreign = await send(socket, "chat-foreign", "Ret adressen på den fremmede ordre");
    const tried = await send(socket, "chat-foreign", [answerApprovals(foreign.message!, true)]);
    expect(tried.text).toContain("not_found");
    expect((await prisma().order.findUniqueOrThrow({ where: { id: stranger.id } })).shippingAddress).toBe(stranger.shippingAddress);
  });

  it("swaps a line of an unshipped order to another size after approval, refuses a dearer one on a paid order, and changes the parcel shop", async () => {
    const { customer, socket } = await signedInShopper();
    const order = await createOrder(server, { status: "paid", email: customer.email, userId: customer.id, variant: true, quantities: [1, 1] });
    const line = order.items.find((item) => item.variantId)!;
    await prisma().productVariant.updateMany({ where: { productId: line.productId }, data: { stock: 5n } });
    const variants = await prisma().productVariant.findMany({ where: { productId: line.productId }, orderBy: { sku: "asc" } });
    // The demo product is sold in S, M and L; L costs 100 kr. more.
    const same = variants.find((variant) => variant.id !== line.variantId && !variant.sku.endsWith("-l"))!;
    const dearer = variants.find((variant) => variant.sku.endsWith("-l"))!;
    fake.on("mellem").callTool("orders_change_items", { orderId: order.id, items: [{ orderItemId: line.id, variantSku: same.sku }] }).say((req) => `Skiftet: ${req.lastToolResult<{ lines: Array<{ orderItemId: string; variantSku: string }> }>()!.lines.find((x) => x.orderItemId === line.id)!.variantSku}.`);
    fake.on("stor").callTool("orders_change_items", { orderId: order.id, items: [{ orderItemId: line.id, variantSku: dearer.sku }] }).say((req) => `Fejl: ${JSON.stringify(req.lastToolResult())}`);
    fake.on("pakkeshop").callTool("orders_change_delivery", { orderId: order.id, method: "gls-pakkeshop", pickupPointId: "gls-aarhus-spar" }).say("Leveringen er ændret.");

    const asked = await send(socket, "chat-swap", "Kan jeg få den i mellem i stedet?");
    expect(toolParts(asked.message)).toMatchObject([{ name: "orders_change_items", state: "approval-requested" }]);
    expect((await prisma().orderItem.findUniqueOrThrow({ where: { id: line.id } })).variantSku).toBe(line.variantSku);
    const done = await send(socket, "chat-swap", [answerApprovals(asked.message!, true)]);
    expect(done.text).toBe(`Skiftet: ${same.sku}.`);
    expect((await prisma().orderItem.findUniqueOrThrow({ where: { id: line.id } })).variantSku).toBe(same.sku);
    expect(await prisma().auditEntry.findFirstOrThrow({ where: { tool: "orders.change_items", subjectId: order.id } })).toMatchObject({ door: "storefront-assistant", actor: expect.stringMatching(/^session:/) });

    const bigger = await send(socket, "chat-swap-dearer", "Så vil jeg hellere have den store");
    const refused = await send(socket, "chat-swap-dearer", [answerApprovals(bigger.message!, true)]);
    expect(refused.text).toContain("payment_required");
    expect((await prisma().orderItem.findUniqueOrThrow({ where: { id: line.id } })).variantSku).toBe(same.sku);

    const moved = await send(socket, "chat-delivery", "Send den til en pakkeshop i Aarhus");
    expect(toolParts(moved.message)).toMatchObject([{ name: "orders_change_delivery", state: "approval-requested" }]);
    expect((await send(socket, "chat-delivery", [answerApprovals(moved.message!, true)])).text).toBe("Leveringen er ændret.");
    expect(await prisma().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ deliveryMethodId: "gls-pakkeshop", pickupPoint: { id: "gls-aarhus-spar" } });
  });

  it("returns a delivered line and exchanges another for a different variant, each after approval", async () => {
    const { customer, socket } = await signedInShopper();
    const order = await shippedOrder(server, { deliveredDaysAgo: 4, email: customer.email, userId: customer.id, quantities: [1, 1], variant: true });
    const plain = order.items.find((item) => !item.variantId)!;
    const sized = order.items.find((item) => item.variantId)!;
    const other = await prisma().productVariant.findFirstOrThrow({ where: { productId: sized.productId, id: { not: sized.variantId! }, stock: { gt: 0 } } });
    fake.on("returnere").callTool("returns_request", { orderId: order.id, items: [{ orderItemId: plain.id, quantity: 1 }], kind: "withdrawal", reason: "Fortrudt" })
      .say((req) => `Retur oprettet: ${req.lastToolResult<{ status: string }>()!.status}.`);
    fake.on("størrelse").callTool("orders_item_options", { orderId: order.id }).callTools((req) => {
      const options = req.lastToolResult<Array<{ orderItemId: string; variants: Array<{ id: string; sku: string }> }>>()!;
      const swap = options.find((option) => option.orderItemId === sized.id)!.variants.find((variant) => variant.id === other.id)!;
      return [{ name: "returns_request", input: { orderId: order.id, items: [{ orderItemId: sized.id, quantity: 1 }], kind: "withdrawal", reason: "Forkert størrelse", exchangeVariantId: swap.id } }];
    }).say("Ombytningen er anmodet.");

    const asked = await send(socket, "chat-return", "Jeg vil returnere den ene vare");
    expect(toolParts(asked.message)).toMatchObject([{ name: "returns_request", state: "approval-requested" }]);
    expect(await prisma().returnRequest.count({ where: { orderId: order.id } })).toBe(0);
    const done = await send(socket, "chat-return", [answerApprovals(asked.message!, true)]);
    expect(done.text).toBe("Retur oprettet: requested.");
    expect(await prisma().returnRequest.findFirst({ where: { orderId: order.id, exchangeVariantId: null } })).toMatchObject({ kind: "withdrawal", status: "requested" });

    const exchange = await send(socket, "chat-exchange", "Kan jeg bytte til en anden størrelse?");
    const parts = toolParts(exchange.message);
    expect(parts[0]).toMatchObject({ name: "orders_item_options", state: "output-available" });
    expect(parts[1]).toMatchObject({ name: "returns_request", state: "approval-requested", input: { exchangeVariantId: other.id } });
    const swapped = await send(socket, "chat-exchange", [answerApprovals(exchange.message!, true)]);
    expect(swapped.text).toBe("Ombytningen er anmodet.");
    expect(await prisma().returnRequest.findFirst({ where: { orderId: order.id, exchangeVariantId: other.id } })).toMatchObject({ status: "requested" });
  });
});
