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
