/**
 * Cubes that read public data the same for every tenant, deliberately without the tenant filter
 * (docs/cube.md "Tenant scoping", docs/benchmarks.md). Each is listed with its exact `sql`: a model
 * whose `sql` differs, or any other cube without `requiredFilter('tenant_id')`, fails
 * test/cube/api.test.ts. Such a cube joins no tenant cube and reads only global tables, so a query
 * through it reads no tenant row; the BI schema (one view per tenant cube) leaves it out.
 */
export const PUBLIC_CUBES: Readonly<Record<string, string>> = Object.freeze({
  // corpus_source, corpus_repositories, corpus_read_on: which corpus the rows are, from how many repositories, read when, from its source table (global, no tenant; one row by its check).
  benchmarks:
    "SELECT *, (month::timestamp AT TIME ZONE 'UTC') AS month_start, (SELECT CASE kind WHEN 'live' THEN 'measured' ELSE 'shipped_example' END FROM benchmark_corpus_source) AS corpus_source, (SELECT repositories FROM benchmark_corpus_source) AS corpus_repositories, (SELECT to_char(generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM benchmark_corpus_source) AS corpus_read_on FROM benchmark_corpus",
});

export function isPublicCube(name: string, sql: string): boolean {
  return Object.hasOwn(PUBLIC_CUBES, name) && PUBLIC_CUBES[name] === sql.trim();
}
