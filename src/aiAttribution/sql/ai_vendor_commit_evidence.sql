-- A vendor's per-commit AI lines (ai_vendor_commits: Cursor AI Code Tracking, tab or composer
-- lines) as high evidence for the commit with that sha in the tenant (docs/ai-attribution.md
-- "Vendor data"). Read by commit: commits_tenant_sha_idx, then ai_vendor_commits_tenant_sha.
-- depends-on: ai_vendor_tool
CREATE OR REPLACE VIEW "ai_vendor_commit_evidence" AS
SELECT v.tenant_id, c.id AS commit_id, 'vendor_commit'::text AS signal, v.source, NULL::uuid AS session_id,
       ai_vendor_tool(v.source) || ': ' || COALESCE(round(100.0 * (v.tab_lines_added + v.composer_lines_added) / NULLIF(v.total_lines_added, 0))::text || ' % of added lines', (v.tab_lines_added + v.composer_lines_added)::text || ' added lines')
       || ' from AI (tab ' || v.tab_lines_added::text || ', composer ' || v.composer_lines_added::text || '), vendor data, commit ' || left(c.sha, 7) AS evidence
FROM "ai_vendor_commits" v
JOIN "commits" c ON c.tenant_id = v.tenant_id AND c.sha = v.sha
WHERE v.ai_lines_added > 0 OR v.tab_lines_added > 0 OR v.composer_lines_added > 0;
