function presentTeam(team) {
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    externalRef: team.externalRef,
    costCentreCode: team.costCentreCode,
    orgUnit: team.orgUnit,
    supplierName: team.supplierName,
    deliveryModel: team.deliveryModel,
    locationCountry: team.locationCountry,
    enabled: team.enabled,
    memberCount: team.memberCount,
    projects: team.projects,
    createdAt: team.createdAt.toISOString(),
    updatedAt: team.updatedAt.toISOString()
  };
}
function presentPerson(person) {
  return { ...person };
}
function presentImport(result) {
  return { ...presentImportRecord(result.import), recorded: result.recorded, counts: result.counts };
}
function presentImportRecord(record) {
  const { id, importedAt, rowCount, importedBy, fileSha256 } = record;
  return { id, importedAt: importedAt.toISOString(), rowCount, importedBy, fileSha256 };
}
export {
  presentImport,
  presentImportRecord,
  presentPerson,
  presentTeam
};
