import type { CubeRow } from '../api/cube';

export interface TeamRef {
  id: string;
  name: string;
  slug: string;
  /** The row of the facts no team counts (projects no team owns): no team page to open. */
  noTeam?: true;
}

export const NO_TEAM: TeamRef = { id: 'no-team', name: 'No team', slug: '', noTeam: true };
/** The total under a by-team table: the cube's answer without the team dimension, never a sum of the rows. */
export const ORGANISATION: TeamRef = { id: 'organisation', name: 'Organisation', slug: '' };

export interface TeamRow {
  team: TeamRef;
  row: CubeRow | undefined;
}

/**
 * The enabled teams of the register (only `onlyTeam` when given), each with its row of a by-team
 * answer (none when it had no data), then "No team" when the answer has facts of no team (a
 * project no team owns): without it the teams' rows would not add up to the organisation's total.
 */
export function withTeamRows(teams: CubeRow[], rows: CubeRow[], onlyTeam?: string): TeamRow[] {
  // Several answers (one per group of facts) may hold a team: their cells are put side by side.
  const byId = new Map<string, CubeRow>();
  for (const r of rows) byId.set(String(r['teams.id']), { ...byId.get(String(r['teams.id'])), ...r });
  const listed: TeamRow[] = teams
    .map((t) => ({ id: String(t['teams.id']), name: String(t['teams.name']), slug: String(t['teams.slug']) }))
    .filter((team) => onlyTeam === undefined || team.id === onlyTeam)
    .map((team) => ({ team, row: byId.get(team.id) }));
  const none = byId.get('null');
  return onlyTeam === undefined && none ? [...listed, { team: NO_TEAM, row: none }] : listed;
}
