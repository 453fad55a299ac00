// The checked-in migrations and schema.prisma describe the same database: tables, columns, types, nullability, keys and indexes.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/core/db.ts";
import { migrate, readMigrations } from "../../src/core/migrate.ts";
import { testDatabase } from "../support/server.ts";

const SQL_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  DateTime: "timestamp without time zone",
  Json: "jsonb",
  Float: "double precision",
  Bytes: "bytea",
};

interface Field {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  attributes: string;
}

interface Model {
  name: string;
  fields: Field[];
  blockAttributes: string[];
}

/** A small parser for the subset of the Prisma schema language this project uses. */
function parseSchema(text: string): Model[] {
  const models: Model[] = [];
  for (const match of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const fields: Field[] = [];
    const blockAttributes: string[] = [];
    for (const raw of match[2]!.split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      if (!line) continue;
      if (line.startsWith("@@")) {
        blockAttributes.push(line);
        continue;
      }
      const [name, type, ...rest] = line.split(/\s+/);
      fields.push({ name: name!, type: type!.replace(/[?[\]]/g, ""), optional: type!.endsWith("?"), list: type!.endsWith("[]"), attributes: rest.join(" ") });
    }
    models.push({ name: match[1]!, fields, blockAttributes });
  }
  return models;
}

let database: Database;
let drop: () => Promise<void>;
const models = parseSchema(fs.readFileSync(path.resolve("prisma/schema.prisma"), "utf8"));
const modelNames = new Set(models.map((m) => m.name));
/**
 * What the catalogue-search migrations create on PostgreSQL only (guarded blocks; PGlite has no unaccent): read by
 * src/tools/products/sql-search.ts in SQL, never by Prisma, so schema.prisma leaves them out (docs/operations.md).
 */
const SEARCH_TABLES = ["CatalogPosting", "CatalogWord"];
const SEARCH_COLUMNS: Record<string, string[]> = { Product: ["listingRank", "searchText", "searchVector"] };
const searchObjects = () => database.kind === "postgres";

beforeAll(async () => {
  ({ database, drop } = await testDatabase());
});
afterAll(() => drop());

describe("migrations", () => {
  it("are recorded in _prisma_migrations with checksums, and re-running applies nothing", async () => {
    const rows = await database.query<{ migration_name: string; checksum: string }>(`SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows).toEqual(readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum })));
    expect(await migrate(database)).toEqual([]);
  });

  it("create exactly the tables of schema.prisma", async () => {
    const tables = await database.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
    );
    expect(tables.map((t) => t.table_name).sort()).toEqual([...modelNames, ...(searchObjects() ? SEARCH_TABLES : [])].sort());
  });

  it("create every scalar field as a column of the right type and nullability, and no other column", async () => {
    const columns = await database.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`,
    );
    for (const model of models) {
      const actual = columns.filter((c) => c.table_name === model.name);
      const scalars = model.fields.filter((f) => !modelNames.has(f.type));
      const sqlOnly = searchObjects() ? (SEARCH_COLUMNS[model.name] ?? []) : [];
      expect(actual.map((c) => c.column_name).sort(), model.name).toEqual([...scalars.map((f) => f.name), ...sqlOnly].sort());
      for (const field of scalars) {
        const column = actual.find((c) => c.column_name === field.name)!;
        const where = `${model.name}.${field.name}`;
        if (field.list) expect(column.udt_name, where).toBe(`_${SQL_TYPES[field.type] === "text" ? "text" : field.type.toLowerCase()}`);
        else expect(column.data_type, where).toBe(SQL_TYPES[field.type]);
        if (!field.list) expect(column.is_nullable, where).toBe(field.optional ? "YES" : "NO");
      }
    }
  });

  it("create the primary keys, unique constraints, indexes and foreign keys that schema.prisma declares", async () => {
    const indexes = await database.query<{ tablename: string; indexname: string; indexdef: string }>(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`,
    );
    const foreignKeys = await database.query<{ conname: string }>(`SELECT conname FROM pg_constraint WHERE contype = 'f'`);
    const names = new Set(indexes.map((i) => i.indexname));
    for (const model of models) {
      // The key is one field's @id, or the model's @@id([a, b]).
      const id = model.fields.find((f) => f.attributes.includes("@id"));
      const composite = model.blockAttributes.map((attribute) => /^@@id\(\[([^\]]+)\]/.exec(attribute)?.[1]).find(Boolean);
      const keyColumns = id ? [id.name] : composite!.split(",").map((column) => column.trim());
      expect(names.has(`${model.name}_pkey`), `${model.name} primary key`).toBe(true);
      expect(indexes.find((i) => i.indexname === `${model.name}_pkey`)!.indexdef).toMatch(new RegExp(`\\(${keyColumns.map((column) => `"?${column}"?`).join(", ")}\\)`));
      for (const field of model.fields.filter((f) => f.attributes.includes("@unique"))) {
        expect(names.has(`${model.name}_${field.name}_key`), `${model.name}.${field.name} unique`).toBe(true);
      }
      for (const attribute of model.blockAttributes.filter((block) => !block.startsWith("@@id"))) {
        const columnsOf = /\[([^\]]+)\]/.exec(attribute)![1]!.split(",").map((c) => c.trim());
        const suffix = attribute.startsWith("@@unique") ? "key" : "idx";
        const name = `${model.name}_${columnsOf.join("_")}_${suffix}`;
        expect(names.has(name), `${name}`).toBe(true);
        expect(indexes.find((i) => i.indexname === name)!.indexdef.startsWith(suffix === "key" ? "CREATE UNIQUE INDEX" : "CREATE INDEX")).toBe(true);
      }
      for (const field of model.fields.filter((f) => f.attributes.includes("@relation(fields:"))) {
        const local = /fields: \[(\w+)\]/.exec(field.attributes)![1];
        expect(foreignKeys.some((fk) => fk.conname === `${model.name}_${local}_fkey`), `${model.name}.${local} foreign key`).toBe(true);
      }
    }
  });
});
