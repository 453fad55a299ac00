// checkout.update through real HTTP: replacing fields, line ids kept, option choice, refusals once final, bad input.
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../src/tools/checkout/schemas.ts";
import { expectOk, expectProblem, expectRejected, expectScopeMatrix, lastAudit } from "../../support/expect.ts";
import { useServer } from "../../support/server.ts";
import { plainProducts } from "../../support/session.ts";
import { BUYER, DESTINATION, openSession } from "./helpers.ts";

const { server, keys: { key } } = useServer({ keys: { key: ["checkout:agent"] } });

const update = (input: Record<string, unknown>) => server.call("checkout.update", input, { key });

describe("checkout.update", () => {
  it("moves an incomplete session to ready_for_complete and keeps line ids", async () => {
    const { view, product } = await openSession(server, key, { ready: false });
    const [, other] = await plainProducts(server, 1);
    const changed = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, buyer: BUYER, destination: DESTINATION, lines: [{ itemId: product.id, quantity: 2 }, { itemId: other!.id, quantity: 1 }] }));
    expect(changed.status).toBe("ready_for_complete");
    expect(changed.lines.map((l) => [l.id, l.itemId, l.quantity])).toEqual([["li_1", product.id, 2], ["li_2", other!.id, 1]]);
    expect(changed.fulfillment.destination).toMatchObject({ ...DESTINATION, id: "dest_1" });
    expect(await lastAudit(server)).toMatchObject({ tool: "checkout.update", subjectId: view.id });
    const cleared = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, destination: null }));
    expect(cleared.status).toBe("incomplete");
  });

  it("takes a shipping option by id and flags an unknown one", async () => {
    const { view } = await openSession(server, key);
    const option = view.fulfillment.options.at(-1)!;
    expect(expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, fulfillmentOptionId: option.id })).fulfillment.selectedOptionId).toBe(option.id);
    const wrong = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, fulfillmentOptionId: "ship_nowhere" }));
    expect(wrong.status).toBe("incomplete");
    expect(wrong.messages).toContainEqual(expect.objectContaining({ code: "invalid", path: "fulfillment.selectedOptionId" }));
  });

  it("offers parcel shops on request (offerPickup) and needs one for a pickup option", async () => {
    const { view } = await openSession(server, key);
    expect(view.fulfillment.pickupPoints).toBeUndefined();
    const offered = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, offerPickup: true, fulfillmentOptionId: "pickup_gls-pakkeshop" }));
    expect(offered.fulfillment.options.map((option) => option.id)).toEqual(expect.arrayContaining(["pickup_postnord-pakkeshop", "pickup_gls-pakkeshop"]));
    expect(offered.fulfillment.pickupPoints!.every((point) => ["PostNord", "GLS"].includes(point.carrier))).toBe(true);
    expect(offered.messages).toContainEqual(expect.objectContaining({ code: "pickup_point_required", path: "fulfillment.pickupPointId" }));
    const wrong = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, pickupPointId: "pn-odense-rema" }));
    expect(wrong.messages).toContainEqual(expect.objectContaining({ code: "invalid_pickup_point" }));
    const chosen = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, pickupPointId: "gls-aarhus-spar" }));
    expect(chosen).toMatchObject({ status: "ready_for_complete", fulfillment: { selectedOptionId: "pickup_gls-pakkeshop", pickupPointId: "gls-aarhus-spar" } });
  });

  it("takes a partial destination (a country alone) and asks for the rest", async () => {
    const { view } = await openSession(server, key);
    const partial = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, destination: { id: "dest_9", country: "US" } }));
    expect(partial.status).toBe("incomplete");
    expect(partial.fulfillment.destination).toEqual({ id: "dest_9", country: "US" });
    expect(partial.messages).toContainEqual(expect.objectContaining({ code: "missing", path: "fulfillment.destination" }));
    expectProblem(await server.call("checkout.complete", { id: view.id, payment: { handlerId: "payment_link" } }, { key }), 422, "checkout_not_ready");
  });

  it("flags a Danish address whose postal code and city disagree, and accepts foreign addresses", async () => {
    const { view } = await openSession(server, key);
    const bad = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, destination: { ...DESTINATION, city: "Aarhus" } }));
    expect(bad.messages).toContainEqual(expect.objectContaining({ code: "invalid_address" }));
    const abroad = expectOk<SessionView>(server, "checkout.update", await update({ id: view.id, destination: { street: "Drottninggatan 1", postalCode: "111 51", city: "Stockholm", country: "SE" } }));
    expect(abroad.status).toBe("ready_for_complete");
  });

  it("refuses every change once canceled (422 checkout_not_modifiable), and hides others' sessions", async () => {
    const { view } = await openSession(server, key);
    expectOk(server, "checkout.cancel", await server.call("checkout.cancel", { id: view.id }, { key }));
    expectProblem(await update({ id: view.id, buyer: BUYER }), 422, "checkout_not_modifiable");
    const { view: other } = await openSession(server, key);
    expectProblem(await server.call("checkout.update", { id: other.id, buyer: BUYER }, { key: await server.key("checkout:agent") }), 404, "not_found");
    await expectScopeMatrix(server, "checkout.update", { id: other.id, buyer: BUYER });
  });

  it("rejects bad input with 400 and writes nothing", async () => {
    const { view } = await openSession(server, key);
    await expectRejected(server, "checkout.update", key, [
      {},
      { id: view.id, lines: [] },
      { id: view.id, buyer: { email: 7 } },
      { id: view.id, destination: { street: "x" } },
      { id: view.id, destination: { country: "US", street: "" } },
      { id: view.id, status: "completed" },
      { id: view.id, discountCodes: "A" },
    ]);
  });
});
