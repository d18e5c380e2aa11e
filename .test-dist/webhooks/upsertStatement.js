const ISSUE_PROVIDERS = ["manual", "jira", "linear"];
const cte = (name, body, materialized = false) => `${name} AS ${materialized ? "MATERIALIZED " : ""}(
${body}
)`;
function statement(steps, tail) {
  return `WITH ${steps.flat().join(",\n")}
${tail}`;
}
function inputRows(columns) {
  const all = [["ord", "int"], ["key_hash", "text"], ...columns];
  const arrays = all.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  return [cte("input", `SELECT * FROM unnest(${arrays}) AS x(${all.map(([name]) => name).join(", ")})`, true)];
}
function principalTenant(columns) {
  return [cte("ok", `SELECT input.*, $${columns.length + 3}::uuid AS tenant_id FROM input`)];
}
function projectLookup() {
  return [
    cte("wanted", "SELECT DISTINCT tenant_id, project_key FROM ok", true),
    cte("existing", `SELECT p.id, w.tenant_id, w.project_key FROM wanted w
CROSS JOIN LATERAL (SELECT id FROM projects p WHERE p.tenant_id = w.tenant_id AND lower(p.project_key) = lower(w.project_key) LIMIT 1) p`, true)
  ];
}
function createProjects(seq, from) {
  return [cte("created_project", `INSERT INTO projects (tenant_id, provider, project_key, source_type, sync_issues, sync_pull_requests, sync_deployments, issue_seq)
SELECT tenant_id, 'manual', project_key, 'manual', true, true, true, ${seq} FROM ${from}
ORDER BY tenant_id, project_key
ON CONFLICT (tenant_id, lower(project_key)) DO NOTHING
RETURNING id, tenant_id, project_key, issue_seq`)];
}
const sent = (column) => `(SELECT o.${column} FROM ok o WHERE o.tenant_id = EXCLUDED.tenant_id AND o.external_id = EXCLUDED.external_id)`;
function deploymentProjects() {
  return [
    ...createProjects("0", "wanted w WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.tenant_id = w.tenant_id AND e.project_key = w.project_key)"),
    cte("project", "SELECT id, tenant_id, project_key FROM existing UNION ALL SELECT id, tenant_id, project_key FROM created_project", true)
  ];
}
const DEPLOYMENT_PROVIDERS = ["manual", "codehost"];
function deploymentRecords(provider = "manual") {
  if (!DEPLOYMENT_PROVIDERS.includes(provider)) throw new Error(`unknown deployment provider ${String(provider)}`);
  return [cte("rec", `INSERT INTO deployments AS d (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task,
  description, url, creator_username, is_production, is_rollback, rollback_from_sha, metadata, created_at)
SELECT ok.tenant_id, project.id, '${provider}', ok.external_id, ok.ref, ok.sha, ok.environment, ok.status, ok.task,
  ok.description, ok.url, ok.creator_username, ok.is_production, ok.is_rollback, ok.rollback_from_sha, ok.metadata, COALESCE(ok.created_at, now())
FROM ok JOIN project ON project.tenant_id = ok.tenant_id AND project.project_key = ok.project_key
ORDER BY ok.tenant_id, project.id, ok.external_id
ON CONFLICT (tenant_id, provider, external_id) DO UPDATE SET
  project_id = EXCLUDED.project_id, ref = EXCLUDED.ref, sha = EXCLUDED.sha, environment = EXCLUDED.environment,
  status = EXCLUDED.status, task = EXCLUDED.task, description = EXCLUDED.description, url = EXCLUDED.url,
  creator_username = EXCLUDED.creator_username, is_production = EXCLUDED.is_production,
  is_rollback = EXCLUDED.is_rollback, rollback_from_sha = EXCLUDED.rollback_from_sha, metadata = EXCLUDED.metadata,
  created_at = COALESCE(${sent("created_at")}, d.created_at), updated_at = now()
RETURNING id, tenant_id, external_id, (xmax = 0) AS created`)];
}
function deploymentUpsert(provider = "manual") {
  return [projectLookup(), deploymentProjects(), deploymentRecords(provider)];
}
const providerLiteral = (provider) => {
  if (!ISSUE_PROVIDERS.includes(provider)) throw new Error(`unknown issue provider ${String(provider)}`);
  return `'${provider}'`;
};
function issuePlacement(provider) {
  return [
    cte("prior", `SELECT ok.tenant_id, ok.external_id, i.project_id, i.number FROM ok
CROSS JOIN LATERAL (SELECT project_id, number FROM issues i WHERE i.tenant_id = ok.tenant_id AND i.provider = ${providerLiteral(provider)} AND i.external_id = ok.external_id LIMIT 1) i`, true),
    cte("placed", `SELECT ok.*, e.id AS existing_id, p.number AS prior_number,
  ok.number IS NULL AND (e.id IS NULL OR p.project_id IS DISTINCT FROM e.id) AS generate
FROM ok
LEFT JOIN existing e ON e.tenant_id = ok.tenant_id AND e.project_key = ok.project_key
LEFT JOIN prior p ON p.tenant_id = ok.tenant_id AND p.external_id = ok.external_id`, true),
    cte("demand", `SELECT tenant_id, project_key, existing_id, (count(*) FILTER (WHERE generate))::int AS gen, COALESCE(max(number), 0) AS top
FROM placed GROUP BY tenant_id, project_key, existing_id`, true)
  ];
}
function issueCounters() {
  return [
    ...createProjects("top + gen", "demand WHERE existing_id IS NULL"),
    cte("locked_projects", `SELECT p.id FROM projects p JOIN demand d ON d.existing_id = p.id
WHERE d.gen > 0 OR d.top > p.issue_seq ORDER BY p.id FOR UPDATE OF p`, true),
    cte("bumped", `UPDATE projects p SET issue_seq = GREATEST(p.issue_seq, d.top) + d.gen
FROM demand d
WHERE p.id = d.existing_id AND p.id IN (SELECT id FROM locked_projects) AND (d.gen > 0 OR d.top > p.issue_seq)
RETURNING p.id, p.issue_seq`),
    cte("project", `SELECT d.tenant_id, d.project_key, d.existing_id AS id, b.issue_seq - d.gen AS base
FROM demand d LEFT JOIN bumped b ON b.id = d.existing_id WHERE d.existing_id IS NOT NULL
UNION ALL
SELECT c.tenant_id, c.project_key, c.id, c.issue_seq - d.gen
FROM created_project c JOIN demand d ON d.tenant_id = c.tenant_id AND d.project_key = c.project_key AND d.existing_id IS NULL`, true)
  ];
}
function issueNumbers() {
  return [cte("numbered", `SELECT placed.*, project.id AS project_id, CASE
  WHEN placed.number IS NOT NULL THEN placed.number
  WHEN placed.generate THEN project.base + (row_number() OVER (PARTITION BY project.id, placed.generate ORDER BY placed.ord))::int
  ELSE placed.prior_number END AS final_number
FROM placed JOIN project ON project.tenant_id = placed.tenant_id AND project.project_key = placed.project_key`, true)];
}
function issueRecords(provider) {
  return [cte("rec", `INSERT INTO issues AS i (tenant_id, project_id, provider, external_id, number, title, type, state, body, url,
  author_username, assignee_username, labels, metadata, created_at, closed_at)
SELECT n.tenant_id, n.project_id, ${providerLiteral(provider)}, n.external_id, n.final_number, n.title, n.type, n.state, n.body, n.url,
  n.author_username, n.assignee_username, ARRAY(SELECT jsonb_array_elements_text(n.labels)), n.metadata, COALESCE(n.created_at, now()),
  CASE WHEN n.closed_given THEN n.closed_at WHEN n.state = 'closed' THEN now() END
FROM numbered n
ORDER BY n.tenant_id, n.project_id, n.external_id
ON CONFLICT (tenant_id, provider, external_id) DO UPDATE SET
  project_id = EXCLUDED.project_id,
  number = CASE WHEN ${sent("number")} IS NOT NULL OR i.project_id <> EXCLUDED.project_id THEN EXCLUDED.number ELSE i.number END,
  title = EXCLUDED.title, type = EXCLUDED.type, state = EXCLUDED.state, body = EXCLUDED.body, url = EXCLUDED.url,
  author_username = EXCLUDED.author_username, assignee_username = EXCLUDED.assignee_username,
  labels = EXCLUDED.labels, metadata = EXCLUDED.metadata,
  created_at = COALESCE(${sent("created_at")}, i.created_at),
  closed_at = CASE WHEN ${sent("closed_given")} THEN EXCLUDED.closed_at
    WHEN EXCLUDED.state = 'closed' THEN COALESCE(i.closed_at, now()) END,
  updated_at = now()
RETURNING id, tenant_id, external_id, (xmax = 0) AS created`)];
}
function issueUpsert(provider) {
  return [projectLookup(), issuePlacement(provider), issueCounters(), issueNumbers(), issueRecords(provider)];
}
export {
  DEPLOYMENT_PROVIDERS,
  ISSUE_PROVIDERS,
  deploymentProjects,
  deploymentRecords,
  deploymentUpsert,
  inputRows,
  issueCounters,
  issueNumbers,
  issuePlacement,
  issueRecords,
  issueUpsert,
  principalTenant,
  projectLookup,
  statement
};
