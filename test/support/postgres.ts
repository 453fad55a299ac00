// PostgreSQL URLs for tests: the admin database, and a throwaway database per test file.
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export function adminUrl(base: string): string {
  return base;
}
