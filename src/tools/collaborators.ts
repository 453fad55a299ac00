// Long-lived collaborators that handlers reach through ctx.collaborators (read models, providers); built once per process.
import type { Background } from "../core/background.ts";
import type { Db } from "../core/db.ts";
import type { Mailer } from "../core/mail.ts";
import type { Outbox } from "../core/outbox/outbox.ts";
import type { KeyVerifier } from "./keys/verifier.ts";
import type { PaymentProvider } from "./money/payments/provider.ts";
import type { OrderEvents } from "./orders/events.ts";
import type { CatalogReadModel } from "./products/read-model.ts";
import type { FeatureFlags } from "./settings/flags.ts";

export interface Collaborators {
  /** The in-memory read model of the visible catalogue (products, categories). */
  catalog: CatalogReadModel;
  /** Outgoing e-mail (SMTP or the DATA_DIR/outbox folder); send only from ctx.afterCommit effects. */
  mailer: Mailer;
  /** The shared database client (not a transaction): only for ctx.afterCommit effects, handlers use ctx.db. */
  db: Db;
  /** Turns placed orders into payment URLs: manual bank transfer / invoice, or Stripe Checkout. */
  payments: PaymentProvider;
  /** The feature flags, kept in memory until one changes. */
  flags: FeatureFlags;
  /**
   * A transaction of its own, for background work that writes after the call has answered (a withdrawal declaration
   * is matched to its order there, so the answer's timing does not tell whether it matched).
   */
  transaction<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Work started after commit that the answer does not wait for (a login e-mail: its timing must not tell who is a customer). */
  background: Background;
  /** HMAC-SHA256 (base64url) of a text with the shop's secret: for values that must not be guessable from the database alone. */
  sign(text: string): string;
  /** API-key verification with its short cache, which the key tools clear when a key is revoked or narrowed. */
  keys: KeyVerifier;
  /** The durable outbox of outbound webhooks: enqueue in the handler's transaction, delivery follows the commit. */
  outbox: Outbox;
  /** The order-event hub: a tool announces each order change here once; the composition root subscribes who hears it. */
  orderEvents: OrderEvents;
}
