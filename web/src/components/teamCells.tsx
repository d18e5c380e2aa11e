/**
 * Cells of the by-team tables (Teams, Flow, AI adoption): a value from the team's row, or the
 * reason it has none. A team absent from an answer had nothing in the window: it says so in words.
 */
import type { ReactNode } from 'react';
import { num } from '../api/cube';
import { formatCount, formatRatio } from '../lib/format';
import type { TeamRow } from '../lib/teamRows';
import type { Column } from './DataTable';
import { Median } from './Median';
import { DrillLink } from './Drill';
import { ORGANISATION } from '../lib/teamRows';

const none = (text: string) => <span className="muted">{text}</span>;

/** `empty` null: a count whose missing value is a measured 0 (nothing in the window), shown as 0 (issue 46 point 5). */
export const countCell = (key: string, empty: string | null) => (r: TeamRow) => {
  const v = num(r.row, key) ?? (empty === null ? 0 : null);
  return v === null ? none(empty ?? '') : formatCount(v);
};
export const ratioCell = (key: string, empty: string) => (r: TeamRow) => {
  const v = num(r.row, key);
  return v === null ? none(empty) : formatRatio(v);
};
export const medianCell = (key: string, n: string, empty: string) => (r: TeamRow) =>
  num(r.row, key) === null ? none(empty) : <Median seconds={num(r.row, key)} n={num(r.row, n)} />;

/** A numeric, sortable column of a by-team table. */
export function teamColumn(key: string, header: string, member: string, cell: (r: TeamRow) => ReactNode, zero = false): Column<TeamRow> {
  return { key, header, numeric: true, sortValue: (r) => num(r.row, member) ?? (zero ? 0 : null), cell };
}

export const teamNameColumn: Column<TeamRow> = { key: 'team', header: 'Team', sortValue: (r) => r.team.name.toLowerCase(), cell: (r) => r.team.name };

/**
 * A by-team table's column whose cells open their facts (docs/drill-through.md): a team's row for
 * that team, the organisation's row for the page's scope. "No team" (projects no team owns) and an
 * empty cell open nothing: the API filters by team only. `titles` names each measure. `zero`: a
 * count whose missing value is 0, sorted as 0 and opening its (empty) list like any other.
 */
export const drillColumn = (titles: Record<string, string>) => (key: string, measure: string, cell: (r: TeamRow) => ReactNode, zero = false): Column<TeamRow> => {
  const title = titles[measure] as string;
  return teamColumn(key, title, measure, (r) =>
    r.team.noTeam || (num(r.row, measure) === null && !zero) ? cell(r) : (
      <DrillLink measure={measure} title={title} team={r.team.id === ORGANISATION.id ? undefined : { id: r.team.id, name: r.team.name }}>
        {cell(r)}
      </DrillLink>
    ), zero);
};
