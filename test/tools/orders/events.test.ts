// The order-event hub on a real database: an announcement reaches each subscriber once, in the order they subscribed,
// inside the announcing transaction (a subscriber reads what an earlier one wrote there); what they write commits with
// the change, a rollback leaves nothing to send, and a failing subscriber fails the change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/core/config.ts";
import type { Database, Db } from "../../../src/core/db.ts";
import { createLogger } from "../../../src/core/log.ts";
import { Outbox } from "../../../src/core/outbox/outbox.ts";
import { Signers } from "../../../src/core/outbox/signers.ts";
import { OrderEvents, type OrderChange, type OrderEventScope, type OrderSubscriber } from "../../../src/tools/orders/events.ts";
import { testDatabase } from "../../support/server.ts";

let database: Database;
let drop: () => Promise<void>;
let outbox: Outbox;
beforeAll(async () => {
  ({ database, drop } = await testDatabase());
  // Never started: the test reads the rows the subscribers write, nothing is delivered.
  outbox = new Outbox({ database, log: createLogger("silent"), signers: new Signers(), retryDelaysMs: [], timeoutMs: 1_000, pollMs: 60_000, allowLocal: true });
});
afterAll(() => drop());

const config = loadConfig({});
/** What a tool's context gives subscribers: here a bare transaction, its after-commit effects collected. */
const scopeOf = (db: Db, effects: Array<() => unknown>): OrderEventScope => ({
  db,
  afterCommit: (effect) => void effects.push(effect),
  now: () => new Date(),
  config,
  collaborators: { outbox, sign: (text) => text },
});

/** A subscriber that writes one outbox event tagged with its name and the change's order, and says what it saw. */
function writer(name: string, heard: string[]): OrderSubscriber {
  return async (scope, change) => {
    const before = await scope.db.outboxEvent.count({ where: { url: `http://receiver.test/${change.orderId}` } });
    heard.push(`${name} ${change.type} (${before} written before)`);
    await scope.collaborators.outbox.enqueue(scope, { type: `test.${name}`, url: `http://receiver.test/${change.orderId}`, body: "{}", signer: "none", keyRef: "none" });
  };
}

const change = (orderId: string): OrderChange => ({ type: "checkout_completed", orderId, checkoutId: "chk_test" });
const written = (orderId: string) =>
  database.prisma.outboxEvent.findMany({ where: { url: `http://receiver.test/${orderId}` }, orderBy: { seq: "asc" }, select: { type: true } });

describe("the order-event hub", () => {
  it("tells every subscriber once, in the order they subscribed, inside the announcing transaction", async () => {
    const hub = new OrderEvents();
    const heard: string[] = [];
    hub.subscribe(writer("first", heard));
    hub.subscribe(writer("second", heard));
    hub.subscribe(writer("third", heard));
    const effects: Array<() => unknown> = [];
    await database.prisma.$transaction((tx) => hub.announce(scopeOf(tx, effects), change("hub-commit")));
    expect(heard).toEqual(["first checkout_completed (0 written before)", "second checkout_completed (1 written before)", "third checkout_completed (2 written before)"]);
    expect(await written("hub-commit")).toEqual([{ type: "test.first" }, { type: "test.second" }, { type: "test.third" }]);
    // Delivery is woken only once the transaction has committed.
    expect(effects).toHaveLength(3);
  });

  it("sends nothing when the transaction rolls back", async () => {
    const hub = new OrderEvents();
    const heard: string[] = [];
    hub.subscribe(writer("first", heard));
    hub.subscribe(writer("second", heard));
    const rolledBack = database.prisma.$transaction(async (tx) => {
      await hub.announce(scopeOf(tx, []), change("hub-rollback"));
      throw new Error("a later step of the tool failed");
    });
    await expect(rolledBack).rejects.toThrow("a later step");
    expect(heard).toHaveLength(2);
    expect(await written("hub-rollback")).toEqual([]);
  });

  it("fails the change when a subscriber fails, and tells no later subscriber", async () => {
    const hub = new OrderEvents();
    const heard: string[] = [];
    hub.subscribe(writer("first", heard));
    hub.subscribe(async () => {
      throw new Error("the subscriber broke");
    });
    hub.subscribe(writer("third", heard));
    const failed = database.prisma.$transaction((tx) => hub.announce(scopeOf(tx, []), change("hub-failure")));
    await expect(failed).rejects.toThrow("the subscriber broke");
    expect(heard).toEqual(["first checkout_completed (0 written before)"]);
    expect(await written("hub-failure")).toEqual([]);
  });
});
