// What the web door (storefront, admin, docs, /images) is handed by the composition root (src/compose.ts webDeps):
// the executor and the HTTP plumbing it needs, the catalogue's read model for its page cache, the payment provider's
// name for its texts, and the stored images: not the runtime, and never the database.
import type { Config } from "../core/config.ts";
import type { Logger } from "../core/log.ts";
import type { Authenticator } from "../http/auth.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { SessionManager } from "../http/session.ts";
import type { StaffAuth } from "../http/staff-auth.ts";
import type { Executor } from "../tools/executor.ts";
import type { OAuthInteractions } from "../http/oauth-interactions.ts";
import type { StoredImages } from "../tools/images/stored.ts";
import type { PaymentProvider } from "../tools/money/payments/provider.ts";
import type { CatalogReadModel } from "../tools/products/read-model.ts";
import type { Registry } from "../tools/registry.ts";

export interface WebDeps {
  config: Config;
  log: Logger;
  executor: Executor;
  auth: Authenticator;
  limiter: RateLimiter;
  /** Storefront cookie sessions. */
  sessions: SessionManager;
  /** Staff sign-in and the `shop_admin` cookie. */
  staff: StaffAuth;
  /** Signs payment links and CSRF tokens. */
  secret: string;
  /** The tools the docs pages describe. */
  registry: Registry;
  /** The clock (tests inject one). */
  now: () => Date;
  /** Invalidates the storefront's page cache when the catalogue changes. */
  catalog: CatalogReadModel;
  /** The payment provider (the storefront names the payment method by it). */
  payments: PaymentProvider;
  /** Uploaded images and their renditions (GET /images). */
  images: StoredImages;
  /** The OAuth authorizations the consent page (/admin/oauth/:uid) shows and finishes. */
  oauth: OAuthInteractions;
}
