// What a long-lived collaborator (the catalogue read model, the key cache, the feature flags) needs of a write tool's
// call to declare a change: the call's transaction and its after-commit hook. Every ToolContext is one; the
// collaborators take this instead, so they need not import the context that lists them (src/tools/collaborators.ts).
import type { Db } from "../core/db.ts";

export interface ChangeScope {
  /** The write tool's transaction. */
  db: Db;
  /** Runs after the transaction commits; never on rollback. */
  afterCommit(effect: () => Promise<void> | void): void;
}
