import type { RegisterImportRecord, RegisterImportResult } from './registerImport.js';
import type { SeatImportResult } from './seats.js';
import type { PersonView, TeamView } from './teams.js';

export function presentTeam(team: TeamView) {
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
    updatedAt: team.updatedAt.toISOString(),
  };
}

export function presentPerson(person: PersonView) {
  return { ...person };
}

/** Shared by the register and seat imports (API body and CLI output). */
export function presentImport(result: RegisterImportResult | SeatImportResult) {
  return { ...presentImportRecord(result.import), recorded: result.recorded, counts: result.counts };
}

export function presentImportRecord(record: RegisterImportRecord) {
  const { id, importedAt, rowCount, importedBy, fileSha256 } = record;
  return { id, importedAt: importedAt.toISOString(), rowCount, importedBy, fileSha256 };
}
