/**
 * Added to seedTenant's tenant (test/web/seed.ts, left as it is) for deployment frequency as a rate
 * and the "No team" row (issue 38). Hand-worked, for the window 2026-01..2026-03 (90 days):
 *
 * - Beta's acme/web sends its first deployment on 2026-03-02: production successes on 03-02, 03-09,
 *   03-16, 03-23 and 03-30 → 5 over 30 days (Mar 2..31) = 1/6 a day = 1.1667 a week, "since 2 Mar
 *   2026", band high (≥ 1/7 a day). Over the whole window it would have been 5/90 a day: medium.
 * - acme/tools, which no team owns: production successes on 2026-02-10 and 02-20 → 2 over 50 days
 *   (Feb 10..Mar 31) = 0.04 a day = 0.28 a week.
 * - Alpha (seedTenant): 4 over 90 days (its first deployment, 2025-11-01, precedes the window) =
 *   0.0444 a day = 0.3111 a week, band medium.
 * - The organisation: 4 + 5 + 2 = 11 over 90 days (first deployment 2025-11-01) = 0.1222 a day =
 *   0.8556 a week, band medium; "includes 2 from projects no team owns".
 * - Previous window (2025-10..12): Alpha's d0 of 2025-11-01 only, over Nov 1..Dec 31 = 61 days →
 *   1/61 a day = 0.1148 a week.
 */
import type { TestServer } from '../helpers/server.js';

export async function seedRatesAndUnowned(server: TestServer, ownerKey: string): Promise<void> {
  const api = server.as(ownerKey);
  const deploy = async (projectKey: string, externalId: string, createdAt: string) => {
    const r = await api.post('/api/webhooks/v1/deployments', { projectKey, externalId, ref: 'main', sha: externalId.replace(/[^0-9a-f]/g, 'a').padEnd(7, '0'), environment: 'production', status: 'success', createdAt });
    if (r.status >= 300) throw new Error(`deployment: ${r.status} ${r.text}`);
  };
  for (const day of ['02', '09', '16', '23', '30']) await deploy('acme/web', `w${day}`, `2026-03-${day}T09:00:00Z`);
  await deploy('acme/tools', 't1', '2026-02-10T15:00:00Z');
  await deploy('acme/tools', 't2', '2026-02-20T15:00:00Z');
}
