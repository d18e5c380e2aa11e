import type { InstallationRow } from './installations.js';

export function presentInstallation(row: InstallationRow) {
  return {
    installationId: row.installationId,
    accountLogin: row.accountLogin,
    accountType: row.accountType,
    linkedAt: row.linkedAt?.toISOString() ?? null,
    linkedByUserId: row.linkedByUserId,
    suspended: row.suspendedAt !== null,
    removed: row.deletedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /api/integrations/codehost: whether the app is configured, its URLs, and the tenant's installations. */
export function presentCodehostStatus(codehost: { webhookSecret: string | null; name: string | null } | null, urls: { webhookUrl: string; setupUrl: string }, installations: InstallationRow[]) {
  return { enabled: codehost !== null, webhooksAccepted: Boolean(codehost?.webhookSecret), appName: codehost?.name ?? null, ...urls, installations: installations.map(presentInstallation) };
}
