import type { CubeRow } from '../api/cube';

export interface TeamRef {
  id: string;
  name: string;
  slug: string;
}

/** The enabled teams of the register, each with its row of a by-team answer (none when it had no data). */
export function withTeamRows(teams: CubeRow[], rows: CubeRow[]): { team: TeamRef; row: CubeRow | undefined }[] {
  // Several answers (one per group of facts) may hold a team: their cells are put side by side.
  const byId = new Map<string, CubeRow>();
  for (const r of rows) byId.set(String(r['teams.id']), { ...byId.get(String(r['teams.id'])), ...r });
  return teams.map((t) => {
    const team = { id: String(t['teams.id']), name: String(t['teams.name']), slug: String(t['teams.slug']) };
    return { team, row: byId.get(team.id) };
  });
}
