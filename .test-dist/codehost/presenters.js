function presentInstallation(row) {
  return {
    installationId: row.installationId,
    accountLogin: row.accountLogin,
    accountType: row.accountType,
    linkedAt: row.linkedAt?.toISOString() ?? null,
    linkedByUserId: row.linkedByUserId,
    suspended: row.suspendedAt !== null,
    removed: row.deletedAt !== null,
    createdAt: row.createdAt.toISOString()
  };
}
function presentCodehostStatus(codehost, urls, installations) {
  return { enabled: codehost !== null, webhooksAccepted: Boolean(codehost?.webhookSecret), appName: codehost?.name ?? null, ...urls, installations: installations.map(presentInstallation) };
}
export {
  presentCodehostStatus,
  presentInstallation
};
