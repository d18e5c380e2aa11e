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

const none = (text: string) => <span className="muted">{text}</span>;

export const countCell = (key: string, empty: string) => (r: TeamRow) => {
  const v = num(r.row, key);
  return v === null ? none(empty) : formatCount(v);
};
export const ratioCell = (key: string, empty: string) => (r: TeamRow) => {
  const v = num(r.row, key);
  return v === null ? none(empty) : formatRatio(v);
};
export const medianCell = (key: string, n: string, empty: string) => (r: TeamRow) =>
  num(r.row, key) === null ? none(empty) : <Median seconds={num(r.row, key)} n={num(r.row, n)} />;

/** A numeric, sortable column of a by-team table. */
export function teamColumn(key: string, header: string, member: string, cell: (r: TeamRow) => ReactNode): Column<TeamRow> {
  return { key, header, numeric: true, sortValue: (r) => num(r.row, member), cell };
}

export const teamNameColumn: Column<TeamRow> = { key: 'team', header: 'Team', sortValue: (r) => r.team.name.toLowerCase(), cell: (r) => r.team.name };
