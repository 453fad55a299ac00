// Long-lived collaborators that handlers reach through ctx.services (read models, providers); built once per process.
import type { CatalogReadModel } from "./products/read-model.ts";

export interface Services {
  /** The in-memory read model of the visible catalogue (products, categories). */
  catalog: CatalogReadModel;
}
