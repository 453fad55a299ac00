// Long-lived collaborators that handlers reach through ctx.services (read models, providers); built once per process.
import type { Mailer } from "../core/mail.ts";
import type { CatalogReadModel } from "./products/read-model.ts";

export interface Services {
  /** The in-memory read model of the visible catalogue (products, categories). */
  catalog: CatalogReadModel;
  /** Outgoing e-mail (SMTP or the DATA_DIR/outbox folder); send only from ctx.afterCommit effects. */
  mailer: Mailer;
}
