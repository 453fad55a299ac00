// The OAuth authorization server's storage (oidc-provider's adapter contract, one OAuthRecord row per record) and the
// grants the admin's "Forbundne apps" lists: which client acts for which staff user with which scopes, and when last.
import type { Db } from "../../core/db.ts";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { CUSTOMER_ACCOUNT, customerAccount, grantSessionId } from "./shopper-scopes.ts";

/** A record as oidc-provider stores it (its payload is the library's own JSON object). */
export type OAuthPayload = Record<string, unknown>;

/** How often a grant's last use is written at most, so every MCP request does not write. */
const TOUCH_MS = 60_000;

/** Expired records (codes, sessions, tokens, grants) are deleted this often at most, by the next write after it is due. */
const PRUNE_MS = 3600_000;

/** When each database's expired records were last deleted. */
const prunedAt = new WeakMap<PrismaClient, number>();

/** The kind of row that remembers a client's name as the staff user saw it on the consent page. */
export const CLIENT_SEEN = "ClientSeen";

/** The kind of row that holds the toolsets a staff user limited a grant to on the consent page (keyed by grant id). */
export const GRANT_TOOLSETS = "GrantToolsets";

/** How long a grant's toolsets are kept at most: as long as the grant itself lives (its ttl in the authorization server). */
const GRANT_TOOLSETS_TTL_S = 365 * 86_400;

/** One oidc-provider model's records (the adapter methods the library calls, by the model's name). */
export class OAuthModel {
  private readonly prisma: PrismaClient;
  private readonly kind: string;
  private readonly now: () => Date;

  constructor(prisma: PrismaClient, kind: string, now: () => Date) {
    this.prisma = prisma;
    this.kind = kind;
    this.now = now;
  }

  async upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(this.now().getTime() + expiresIn * 1000) : null;
    const fields = {
      payload: payload as Prisma.InputJsonObject,
      grantId: typeof payload.grantId === "string" ? payload.grantId : null,
      userCode: typeof payload.userCode === "string" ? payload.userCode : null,
      uid: typeof payload.uid === "string" ? payload.uid : null,
      expiresAt,
    };
    await this.prisma.oAuthRecord.upsert({ where: { kind_id: { kind: this.kind, id } }, create: { kind: this.kind, id, ...fields }, update: fields });
    await this.pruneWhenDue();
  }

  /** Deletes records past their expiry (find already ignores them), hourly at most per process. */
  private async pruneWhenDue(): Promise<void> {
    const now = this.now().getTime();
    if (now - (prunedAt.get(this.prisma) ?? 0) < PRUNE_MS) return;
    prunedAt.set(this.prisma, now);
    await this.prisma.oAuthRecord.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  }

  async find(id: string): Promise<OAuthPayload | undefined> {
    return this.live(await this.prisma.oAuthRecord.findUnique({ where: { kind_id: { kind: this.kind, id } } }));
  }

  async findByUid(uid: string): Promise<OAuthPayload | undefined> {
    return this.live(await this.prisma.oAuthRecord.findFirst({ where: { kind: this.kind, uid } }));
  }

  async findByUserCode(userCode: string): Promise<OAuthPayload | undefined> {
    return this.live(await this.prisma.oAuthRecord.findFirst({ where: { kind: this.kind, userCode } }));
  }

  async consume(id: string): Promise<void> {
    await this.prisma.oAuthRecord.updateMany({ where: { kind: this.kind, id }, data: { consumedAt: this.now() } });
  }

  async destroy(id: string): Promise<void> {
    await this.prisma.oAuthRecord.deleteMany({ where: { kind: this.kind, id } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.prisma.oAuthRecord.deleteMany({ where: { kind: this.kind, grantId } });
  }

  /** The payload of a row still valid (an expired one is as good as gone), with `consumed` once it was consumed. */
  private live(row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null } | null): OAuthPayload | undefined {
    if (!row || (row.expiresAt && row.expiresAt <= this.now())) return undefined;
    const payload = row.payload as OAuthPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }
}

/** A grant as the admin lists it. */
export interface GrantView {
  id: string;
  clientId: string;
  clientName: string | null;
  staffId: string;
  scopes: string[];
  /** The toolsets the grant is limited to; null: every toolset. */
  toolsets: string[] | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

export class OAuthStore {
  private readonly prisma: PrismaClient;
  private readonly now: () => Date;

  constructor(prisma: PrismaClient, now: () => Date) {
    this.prisma = prisma;
    this.now = now;
  }

  model(kind: string): OAuthModel {
    return new OAuthModel(this.prisma, kind, this.now);
  }

  /** Remembers the name a client showed on the consent page (a metadata-document client is not stored otherwise). */
  async rememberClient(clientId: string, name: string | undefined): Promise<void> {
    await this.model(CLIENT_SEEN).upsert(clientId, { clientId, ...(name ? { name } : {}) });
  }

  /**
   * Limits a grant to toolsets (the ticked ones of the consent page), or lifts the limit (undefined: every toolset). A
   * grant given again replaces its earlier choice. The row carries the grant id, so ending the grant deletes it too.
   */
  async setGrantToolsets(grantId: string, toolsets: readonly string[] | undefined): Promise<void> {
    if (toolsets === undefined) await this.model(GRANT_TOOLSETS).destroy(grantId);
    else await this.model(GRANT_TOOLSETS).upsert(grantId, { grantId, toolsets: [...toolsets].sort() }, GRANT_TOOLSETS_TTL_S);
  }

  /** The toolsets a grant is limited to, or undefined when it is not limited. */
  async grantToolsets(grantId: string): Promise<string[] | undefined> {
    return toolsetsOf(await this.model(GRANT_TOOLSETS).find(grantId)) ?? undefined;
  }

  /** A staff user's scopes as they are now (a token never acts beyond them), or null once the user is gone. */
  async staffScopes(staffId: string): Promise<string[] | null> {
    const user = await this.prisma.adminUser.findUnique({ where: { id: staffId }, select: { scopes: true } });
    return user?.scopes ?? null;
  }

  async customerExists(customerId: string): Promise<boolean> {
    return (await this.prisma.customer.count({ where: { id: customerId } })) > 0;
  }

  /**
   * The storefront session a shopper's grant acts in (its own cart; the orders it places), made on first use and
   * bound to the customer; null once the customer is gone (the session's customer is cleared with it).
   */
  async shopperSession(grantId: string, customerId: string): Promise<string | null> {
    const id = grantSessionId(grantId);
    const row = await this.prisma.storefrontSession.findUnique({ where: { id }, select: { customerId: true } });
    if (row) return row.customerId === customerId ? id : null;
    if (!(await this.customerExists(customerId))) return null;
    await this.prisma.storefrontSession.upsert({ where: { id }, create: { id, customerId }, update: {} });
    return id;
  }

  /**
   * Notes a grant's use by a resource request, at most once a minute per grant; a shopper's grant is a visit to its
   * storefront session too, so the retention pass (src/tools/user/retention.ts) keeps the app's cart while it is used.
   */
  async touchGrant(grantId: string): Promise<void> {
    const now = this.now();
    const { count } = await this.prisma.oAuthRecord.updateMany({
      where: { kind: "Grant", id: grantId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - TOUCH_MS) } }] },
      data: { lastUsedAt: now },
    });
    if (count > 0) await this.prisma.storefrontSession.updateMany({ where: { id: grantSessionId(grantId) }, data: { lastSeenAt: now } });
  }
}

/**
 * Every live grant of staff users (`customerId` undefined) or of one customer, newest first, with the client's name
 * where the shop knows it. A customer's grants have the account id "customer:<id>" (src/api/oauth/shopper.ts).
 */
export async function listGrants(db: Db, now: Date, customerId?: string): Promise<GrantView[]> {
  const account: Prisma.OAuthRecordWhereInput =
    customerId === undefined
      ? { NOT: { payload: { path: ["accountId"], string_starts_with: CUSTOMER_ACCOUNT } } }
      : { payload: { path: ["accountId"], equals: customerAccount(customerId) } };
  const rows = await db.oAuthRecord.findMany({ where: { kind: "Grant", AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, account] }, orderBy: { createdAt: "desc" }, take: 500 });
  const clientIds = [...new Set(rows.map((row) => String((row.payload as OAuthPayload).clientId ?? "")))];
  const clients = await db.oAuthRecord.findMany({ where: { kind: { in: ["Client", CLIENT_SEEN] }, id: { in: clientIds } } });
  const names = new Map<string, string>();
  for (const client of clients) {
    const payload = client.payload as OAuthPayload;
    const name = payload.client_name ?? payload.name;
    if (typeof name === "string") names.set(client.id, name);
  }
  const limits = await db.oAuthRecord.findMany({ where: { kind: GRANT_TOOLSETS, id: { in: rows.map((row) => row.id) } }, select: { id: true, payload: true } });
  const toolsets = new Map(limits.map((limit) => [limit.id, toolsetsOf(limit.payload as OAuthPayload)]));
  return rows.map((row) => grantView(row, names, toolsets.get(row.id) ?? null));
}

export async function findGrant(db: Db, id: string, now: Date): Promise<GrantView | undefined> {
  const row = await db.oAuthRecord.findUnique({ where: { kind_id: { kind: "Grant", id } } });
  if (!row || (row.expiresAt && row.expiresAt <= now)) return undefined;
  const limit = await db.oAuthRecord.findUnique({ where: { kind_id: { kind: GRANT_TOOLSETS, id } }, select: { payload: true } });
  return grantView(row, new Map(), toolsetsOf(limit?.payload as OAuthPayload | undefined));
}

/** The toolsets a GrantToolsets payload names, or null (no row, or no list in it). */
function toolsetsOf(payload: OAuthPayload | undefined): string[] | null {
  const toolsets = payload?.toolsets;
  return Array.isArray(toolsets) ? toolsets.filter((name): name is string => typeof name === "string") : null;
}

/** Ends a grant: the grant and every code and token issued under it. */
export async function deleteGrant(db: Db, id: string): Promise<void> {
  await db.oAuthRecord.deleteMany({ where: { OR: [{ kind: "Grant", id }, { grantId: id }] } });
}

function grantView(row: { id: string; payload: Prisma.JsonValue; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null }, names: Map<string, string>, toolsets: string[] | null): GrantView {
  const payload = row.payload as OAuthPayload;
  const clientId = String(payload.clientId ?? "");
  const resources = (payload.resources ?? {}) as Record<string, unknown>;
  const scopes = [...new Set(Object.values(resources).flatMap((scope) => (typeof scope === "string" ? scope.split(" ") : [])).filter(Boolean))].sort();
  return { id: row.id, clientId, clientName: names.get(clientId) ?? null, staffId: String(payload.accountId ?? ""), scopes, toolsets, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, expiresAt: row.expiresAt };
}
