import type { CubeRow } from '../api/cube';

export interface TeamRef {
  id: string;
  name: string;
  slug: string;
}

export interface TeamRow {
  team: TeamRef;
  row: CubeRow | undefined;
}

/**
 * The enabled teams of the register (only `onlyTeam` when given), each with its row of a by-team
 * answer (none when it had no data).
 */
export function withTeamRows(teams: CubeRow[], rows: CubeRow[], onlyTeam?: string): TeamRow[] {
  // Several answers (one per group of facts) may hold a team: their cells are put side by side.
  const byId = new Map<string, CubeRow>();
  for (const r of rows) byId.set(String(r['teams.id']), { ...byId.get(String(r['teams.id'])), ...r });
  return teams
    .map((t) => ({ id: String(t['teams.id']), name: String(t['teams.name']), slug: String(t['teams.slug']) }))
    .filter((team) => onlyTeam === undefined || team.id === onlyTeam)
    .map((team) => ({ team, row: byId.get(team.id) }));
}
