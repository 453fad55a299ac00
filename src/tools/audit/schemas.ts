// Shapes of the audit area: an entry summary (lists) and the full entry with its before/after snapshots.
import { z } from "zod";

export const auditSummary = z.strictObject({
  id: z.string(),
  tool: z.string().describe("The tool that wrote the entry, e.g. \"products.update\"."),
  actor: z.string().describe("Who called it: \"key:<id>\", \"session:<id>\" or \"system:<name>\"."),
  door: z.string().describe("How it was called: rest, mcp, ucp, acp, admin-assistant, storefront-assistant, cli, web, webhook or system."),
  agent: z.string().nullable().describe("The AI agent that acted (MCP client \"name/version\", or the assistant), or null for a person."),
  subjectType: z.string().nullable().describe("The changed model in camelCase (product, discount, setting …), \"tool\" for generic entries."),
  subjectId: z.string().nullable().describe("Id of the changed row (section name for settings, key for feature flags)."),
  createdAt: z.iso.datetime(),
  revertedAt: z.iso.datetime().nullable().describe("When audit.revert undid this entry, or null."),
  revertOfId: z.string().nullable().describe("For entries written by audit.revert: the id of the entry it undid."),
  revertible: z.boolean().describe("Whether audit.revert can undo this entry now (orders are also checked against the transition rules at revert time)."),
});

/** A row snapshot: an opaque JSON object (not a recursive JSON schema, so the OpenAPI document stays self-contained). */
const snapshot = z.record(z.string(), z.unknown()).nullable();

export const auditDetail = auditSummary.extend({
  requestId: z.string().nullable(),
  revertedBy: z.string().nullable().describe("Actor who reverted the entry, or null."),
  before: snapshot.describe("The subject's full row before the change (opaque JSON), or null when the tool created it."),
  after: snapshot.describe("The subject's full row after the change (opaque JSON), or null when the tool deleted it."),
});

export const entryId = z.string().min(1).max(100).describe("Audit entry id.");
