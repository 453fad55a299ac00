// Prisma CLI configuration: the schema and the checked-in migrations (the server applies them itself).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
