// Shared shapes of the marketing area: campaigns (draft → scheduled → sent) and newsletter subscribers.
import { z } from "zod";
import { isoDateTime } from "../shared/timestamps.ts";

export const AUDIENCES = ["all_subscribers", "customers", "recent_customers"] as const;
export type Audience = (typeof AUDIENCES)[number];

const audience = z
  .enum(AUDIENCES)
  .describe(
    "customers: a paid order; recent_customers: one in 90 days.",
  );

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sent"] as const;

export const campaignId = z.string().min(1).max(100).describe("Campaign id.");

export const campaignFields = {
  name: z.string().trim().min(1).max(200).describe("Internal name."),
  subject: z.string().trim().min(1).max(200).describe("Subject line."),
  body: z.string().trim().min(1).max(100_000).describe("Plain text or simple markdown."),
  audience,
};

const campaignShape = {
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  body: z.string(),
  audience: z.enum(AUDIENCES),
  status: z.enum(CAMPAIGN_STATUSES).describe("draft (editable), scheduled (waits for sendAt) or sent."),
  sendAt: isoDateTime.nullable().describe("When it is (or was) due to be sent; null while unscheduled."),
  sentAt: isoDateTime.nullable().describe("When it was sent; null until then."),
  recipientCount: z.number().int().min(0).describe("Subscribers it was sent to; 0 until sent."),
  audienceCount: z.number().int().min(0).describe("Active consenting subscribers in its audience right now."),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

export const campaignOutput = z.strictObject(campaignShape);
const { body: _body, ...summaryShape } = campaignShape;
/** A campaign in listings: everything but the body. */
export const campaignSummary = z.strictObject(summaryShape);

export const SOURCES = ["storefront", "chat", "checkout", "import", "admin"] as const;
