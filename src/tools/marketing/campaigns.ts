// Marketing rules shared by the tools: audience sizes (SQL counts), campaign views, lookups and the due-campaign dispatcher.
import type { Db } from "../../core/db.ts";
import { NotFound } from "../../core/errors.ts";
import { iso } from "../../core/json.ts";
import type { Campaign } from "../../generated/prisma/client.ts";
import { revenueStatusesSql } from "../analytics/revenue-rules.ts";
import type { Audience } from "./schemas.ts";

/** How far back a paid order makes a subscriber a "recent customer". */
const RECENT_CUSTOMER_DAYS = 90;

export type AudienceCounts = Record<Audience, number>;

/**
 * Sizes of every audience, counted in SQL. Only active subscribers (not unsubscribed, with a recorded consent) are counted;
 * "customers" have an order in a paid-like status under the same e-mail, "recent_customers" one in the last 90 days.
 */
export async function audienceCounts(db: Db, now: Date): Promise<AudienceCounts> {
  const recent = new Date(now.getTime() - RECENT_CUSTOMER_DAYS * 86_400_000).toISOString();
  const [row] = await db.$queryRaw<Array<Record<Audience, unknown>>>`
    SELECT COUNT(*)::int AS all_subscribers,
           COUNT(*) FILTER (WHERE EXISTS (SELECT 1 FROM "Order" o WHERE lower(o.email) = s.email AND o.status IN (${revenueStatusesSql})))::int AS customers,
           COUNT(*) FILTER (WHERE EXISTS (SELECT 1 FROM "Order" o WHERE lower(o.email) = s.email AND o.status IN (${revenueStatusesSql})
                                           AND o."createdAt" >= ${recent}::timestamp))::int AS recent_customers
    FROM "Subscriber" s
    WHERE s."unsubscribedAt" IS NULL AND s."consentAt" <= ${now.toISOString()}::timestamp`;
  return { all_subscribers: Number(row?.all_subscribers ?? 0), customers: Number(row?.customers ?? 0), recent_customers: Number(row?.recent_customers ?? 0) };
}

function isAudience(value: string): value is Audience {
  return value === "all_subscribers" || value === "customers" || value === "recent_customers";
}

function audienceOf(row: Campaign): Audience {
  return isAudience(row.audience) ? row.audience : "all_subscribers";
}

/** The campaign as tools return it (timestamps in Z, plus the current audience size). */
export function campaignView(row: Campaign, counts: AudienceCounts) {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    body: row.body,
    audience: audienceOf(row),
    status: row.status as "draft" | "scheduled" | "sent",
    sendAt: iso(row.sendAt),
    sentAt: iso(row.sentAt),
    recipientCount: row.recipientCount,
    audienceCount: counts[audienceOf(row)],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The campaign row, locked for the rest of the transaction so concurrent edits and the dispatcher serialise. */
export async function lockCampaign(db: Db, id: string): Promise<Campaign> {
  const locked = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM "Campaign" WHERE id = ${id} FOR UPDATE`;
  if (!locked.length) throw new NotFound(`No campaign with id "${id}".`);
  return db.campaign.findUniqueOrThrow({ where: { id } });
}

export interface Dispatched {
  id: string;
  recipientCount: number;
}

/**
 * Marks scheduled campaigns whose sendAt has passed as sent, with sentAt = now and recipientCount = the size of their audience
 * at that moment. No e-mail is delivered: mail delivery for campaigns is not part of this service yet, so this records the
 * hand-over point a mailer would use. Safe to run from several processes: each campaign is claimed with a conditional update.
 */
export async function dispatchDueCampaigns(db: Db, now: Date): Promise<Dispatched[]> {
  const due = await db.campaign.findMany({ where: { status: "scheduled", sendAt: { lte: now } }, orderBy: { sendAt: "asc" } });
  if (!due.length) return [];
  const counts = await audienceCounts(db, now);
  const dispatched: Dispatched[] = [];
  for (const campaign of due) {
    const recipientCount = counts[audienceOf(campaign)];
    const claimed = await db.campaign.updateMany({
      where: { id: campaign.id, status: "scheduled", sendAt: { lte: now } },
      data: { status: "sent", sentAt: now, recipientCount },
    });
    if (claimed.count === 1) dispatched.push({ id: campaign.id, recipientCount });
  }
  return dispatched;
}
