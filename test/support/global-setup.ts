// Once per run: builds the web assets (as npm start does before the server) and the template database, a migrated,
// demo-seeded PGlite dump (or a PostgreSQL template database).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildAssets } from "../../scripts/build-assets.ts";
import { openDatabase } from "../../src/core/db.ts";
import { prepareDatabase } from "../../src/setup.ts";
import { adminUrl, databaseUrl } from "./postgres.ts";

export default async function setup(project: TestProject) {
  await buildAssets();
  const run = `${process.pid}_${Date.now().toString(36)}`;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const template = `shop_tpl_${run}`;
    const admin = await openDatabase({ databaseUrl: adminUrl(pgUrl) });
    await admin.exec(`CREATE DATABASE "${template}"`);
    const db = await openDatabase({ databaseUrl: databaseUrl(pgUrl, template) });
    await prepareDatabase(db, "demo");
    await db.close();
    project.provide("pgTemplate", template);
    project.provide("pgliteTemplate", "");
    return async () => {
      await admin.exec(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
      await admin.close();
    };
  }
  const db = await openDatabase({});
  await prepareDatabase(db, "demo");
  await db.query("CHECKPOINT");
  const dump = await db.dump!();
  const file = path.join(os.tmpdir(), `shop-template-${run}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide("pgliteTemplate", file);
  project.provide("pgTemplate", "");
  return () => fs.rmSync(file, { force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
