-- A person's AI activity by day from the vendor reports (ai_vendor_days, docs/ai-vendor-reports.md),
-- the vendor branch of ai_activity_days (docs/ai-attribution.md "Vendor data"). A day counts when the
-- report shows any use; person_key is already the lower-cased e-mail or `login:<login>`.
-- depends-on: ai_vendor_tool
CREATE OR REPLACE VIEW "ai_vendor_activity_days" AS
SELECT d.tenant_id, d.person_key, d.day, 'vendor'::text AS source, ai_vendor_tool(d.source) AS tool, NULL::uuid AS session_id
FROM "ai_vendor_days" d
WHERE d.sessions > 0 OR d.requests > 0 OR d.lines_added > 0 OR d.lines_suggested > 0 OR d.edits_accepted > 0 OR d.commits > 0;
