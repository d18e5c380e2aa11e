const PUBLIC_CUBES = Object.freeze({
  // corpus_source, corpus_repositories, corpus_read_on: which corpus the rows are, from how many repositories, read when, from its source table (global, no tenant; one row by its check).
  benchmarks: "SELECT *, (month::timestamp AT TIME ZONE 'UTC') AS month_start, (SELECT CASE kind WHEN 'live' THEN 'measured' ELSE 'shipped_example' END FROM benchmark_corpus_source) AS corpus_source, (SELECT repositories FROM benchmark_corpus_source) AS corpus_repositories, (SELECT to_char(generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM benchmark_corpus_source) AS corpus_read_on FROM benchmark_corpus"
});
function isPublicCube(name, sql) {
  return Object.hasOwn(PUBLIC_CUBES, name) && PUBLIC_CUBES[name] === sql.trim();
}
export {
  PUBLIC_CUBES,
  isPublicCube
};
