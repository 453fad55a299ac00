// The generic side of audit.revert: find a snapshot's Prisma model from Prisma's runtime data model and turn JSON
// snapshots (bigint as number, dates as ISO strings) back into values Prisma writes.
import type { Db } from "../../core/db.ts";
import { toJson } from "../../core/json.ts";
import { Prisma } from "../../generated/prisma/client.ts";

interface FieldInfo {
  name: string;
  kind: string;
  type: string;
}

export interface ModelInfo {
  /** Prisma model name (PascalCase) and the client delegate name (camelCase, the audit subjectType). */
  name: string;
  delegate: string;
  /** The table (the model name unless mapped). */
  table: string;
  /** Scalar fields only; relations are left to their own subjects. */
  fields: FieldInfo[];
  /** The primary key: `id`, or the model's first field (Setting.section, FeatureFlag.key). */
  key: string;
}

export type Row = Record<string, unknown>;

/** The model operations audit.revert needs, common to every Prisma delegate. */
export interface Delegate {
  findUnique(args: { where: Row }): Promise<Row | null>;
  create(args: { data: Row }): Promise<Row>;
  update(args: { where: Row; data: Row }): Promise<Row>;
  delete(args: { where: Row }): Promise<Row>;
}

/** Models whose rows are credentials or the audit log itself: never restored from a snapshot. */
const NEVER = new Set(["AuditEntry", "ApiKey", "AdminUser", "StaffSession", "StaffSetupToken", "LoginThrottle", "LoginCode"]);

interface RuntimeDataModel {
  models: Record<string, { fields: FieldInfo[]; dbName?: string | null }>;
}

/** The model an audit subjectType names (camelCase model name), or undefined (e.g. "tool"). */
export function modelOf(db: Db, subjectType: string): ModelInfo | undefined {
  const dataModel = (db as unknown as { _runtimeDataModel?: RuntimeDataModel })._runtimeDataModel;
  if (!dataModel) throw new Error("Prisma's runtime data model is not available on this client.");
  const name = subjectType.charAt(0).toUpperCase() + subjectType.slice(1);
  const model = Object.hasOwn(dataModel.models, name) ? dataModel.models[name] : undefined;
  if (!model || NEVER.has(name) || subjectType !== name.charAt(0).toLowerCase() + name.slice(1)) return undefined;
  const fields = model.fields.filter((field) => field.kind === "scalar" || field.kind === "enum");
  const key = fields.some((field) => field.name === "id") ? "id" : fields[0]!.name;
  return { name, delegate: subjectType, table: model.dbName ?? name, fields, key };
}

export function delegateOf(db: Db, model: ModelInfo): Delegate {
  return (db as unknown as Record<string, Delegate>)[model.delegate]!;
}

/** Row-locks the subject until the transaction ends, so no concurrent write slips between the checks and the restore. */
export async function lockRow(db: Db, model: ModelInfo, id: string): Promise<void> {
  await db.$queryRawUnsafe(`SELECT 1 FROM "${model.table}" WHERE "${model.key}" = $1 FOR UPDATE`, id);
}

/** A snapshot value as Prisma writes it: numbers to BigInt for BigInt columns, ISO strings to Dates, JSON null to DbNull. */
function fromSnapshot(field: FieldInfo, value: unknown): unknown {
  if (field.type === "Json") return value === null || value === undefined ? Prisma.DbNull : value;
  if (value === null || value === undefined) return null;
  if (field.type === "BigInt" && (typeof value === "number" || typeof value === "string")) return BigInt(value);
  if (field.type === "DateTime" && typeof value === "string") return new Date(value);
  return value;
}

/** Write data for the given snapshot fields (all scalar fields when `only` is omitted); updatedAt is left to Prisma. */
export function writeData(model: ModelInfo, snapshot: Row, only?: ReadonlySet<string>): Row {
  const data: Row = {};
  for (const field of model.fields) {
    if (field.name === "updatedAt" || !(field.name in snapshot)) continue;
    if (only && !only.has(field.name)) continue;
    data[field.name] = fromSnapshot(field, snapshot[field.name]);
  }
  return data;
}

/** Scalar fields (updatedAt aside) whose values differ between two snapshots. */
export function changedFields(model: ModelInfo, before: Row, after: Row): Set<string> {
  return new Set(model.fields.map((f) => f.name).filter((name) => name !== "updatedAt" && !sameJson(before[name], after[name])));
}

/** Deep equality of JSON values, ignoring object key order (jsonb reorders keys); undefined counts as null. */
export function sameJson(a: unknown, b: unknown): boolean {
  const x = toJson(a);
  const y = toJson(b);
  if (x === null || y === null || typeof x !== "object" || typeof y !== "object") return x === y;
  if (Array.isArray(x) || Array.isArray(y)) {
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((item, i) => sameJson(item, y[i]));
  }
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].every((key) => sameJson(x[key], y[key]));
}
