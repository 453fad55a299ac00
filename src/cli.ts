// The `shop` command line: keys, admin users, migrations and seeding, with the server's environment.
import { parseArgs } from "node:util";
import { createApiKey, listApiKeys, revokeApiKey } from "./core/api-keys.ts";
import { loadConfig } from "./core/config.ts";
import { openDatabase, type Database } from "./core/db.ts";
import { ToolError } from "./core/errors.ts";
import { migrate } from "./core/migrate.ts";
import { upsertStaff } from "./core/staff/users.ts";
import { isEmpty, seedDemo } from "../prisma/seed/demo.ts";

const USAGE = `Usage: shop <command>
  keys create --name NAME --scopes a,b   create an API key (printed once, as the last line)
  keys list                              list keys (never the secrets)
  keys revoke ID                         revoke a key
  admin create --email E --password P [--scopes a,b]
                                         create a staff user (scopes default to *), or set a new password
                                         (and scopes, when given) on an existing one
  db migrate                             apply pending migrations
  seed demo                              seed the demo shop into an empty database`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: "string" }, scopes: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
  });
  const [group, command, arg] = positionals;
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(database);
    if (group === "db" && command === "migrate") {
      console.log(applied.length ? `Applied ${applied.join(", ")}.` : "Database schema is up to date.");
      return 0;
    }
    return await run(database, `${group ?? ""} ${command ?? ""}`.trim(), arg, values);
  } finally {
    await database.close();
  }
}

async function run(database: Database, command: string, arg: string | undefined, values: Record<string, string | undefined>): Promise<number> {
  const db = database.prisma;
  switch (command) {
    case "keys create": {
      if (!values.name || !values.scopes) return usage("keys create needs --name and --scopes");
      const { key, info } = await createApiKey(db, values.name, values.scopes.split(","));
      console.log(`Created API key ${info.id} "${info.name}" with scopes ${info.scopes.join(",")}. It is shown only once:`);
      console.log(key);
      return 0;
    }
    case "keys list": {
      const keys = await listApiKeys(db);
      if (keys.length === 0) console.log("No API keys.");
      for (const key of keys) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `active, last used ${key.lastUsedAt ?? "never"}`;
        console.log(`${key.id}\t${key.name}\t${key.prefix}\t${key.scopes.join(",")}\t${state}`);
      }
      return 0;
    }
    case "keys revoke": {
      if (!arg) return usage("keys revoke needs the key id");
      const info = await revokeApiKey(db, arg);
      console.log(`Revoked API key ${info.id} "${info.name}" at ${info.revokedAt}.`);
      return 0;
    }
    case "admin create": {
      if (!values.email || !values.password) return usage("admin create needs --email and --password");
      const staff = await upsertStaff(db, { email: values.email, password: values.password, scopes: values.scopes?.split(",") }, new Date());
      const verb = staff.created ? "created" : "updated (signed out everywhere)";
      console.log(`Staff user ${staff.email} (${staff.id}) ${verb} with scopes ${staff.scopes.join(",")}.`);
      return 0;
    }
    case "seed demo": {
      if (!(await isEmpty(db))) {
        console.error("The database already has a catalogue; seed demo only fills an empty database.");
        return 1;
      }
      await seedDemo(db);
      console.log("Seeded the demo shop.");
      return 0;
    }
    default:
      return usage(command ? `unknown command "${command}"` : undefined);
  }
}

function usage(problem?: string): number {
  if (problem) console.error(`shop: ${problem}`);
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`shop: ${error instanceof ToolError ? error.message : error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
