/**
 * Which drill-through panel a dashboard shows, held in the URL (`drill` a cube measure, `dpage` its
 * page) so that a list of facts can be shared as a link (docs/drill-through.md).
 */
export interface DrillSearch {
  drill?: string;
  dpage?: number;
  /** One month of the window (a table cell's), else the whole window. */
  dmonth?: string;
  /** One team (a by-team table's row), else the page's team. */
  dteam?: string;
  /** The days of a chart's partial month (YYYY-MM-DD, both or neither), else `dmonth` or the window. */
  dfrom?: string;
  dto?: string;
  /**
   * The organisation (id) the list belongs to: a shared link opened in another active organisation
   * switches to it, or says it cannot be seen (docs/drill-through.md "Web app").
   */
  dorg?: string;
  /** One side of AI against not (the AI impact page), the AI-assisted PRs or the others, or one AI attribution level. */
  dsplit?: DrillSplit;
}

/** What `split` of GET /api/facts takes: a side of AI against not, or an AI attribution level. */
export type DrillSplit = 'ai' | 'other' | 'high' | 'medium' | 'low' | 'none';
const SPLITS: readonly string[] = ['ai', 'other', 'high', 'medium', 'low', 'none'];
/** How a list's note names its split. */
export const SPLIT_WORDS: Record<DrillSplit, string> = {
  ai: 'AI-assisted PRs only.', other: 'PRs not AI-assisted only.',
  high: 'PRs of AI attribution high only.', medium: 'PRs of AI attribution medium only.', low: 'PRs of AI attribution low only.', none: 'PRs of AI attribution none only.',
};

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MEASURE = /^[a-z_][a-z0-9_]{0,99}\.[a-z_][a-z0-9_]{0,99}$/;

export function validateDrill(search: Record<string, unknown>): DrillSearch {
  const drill = typeof search.drill === 'string' && MEASURE.test(search.drill) ? search.drill : undefined;
  const page = Number(search.dpage);
  const month = typeof search.dmonth === 'string' && MONTH.test(search.dmonth) ? search.dmonth : undefined;
  const team = typeof search.dteam === 'string' && UUID.test(search.dteam) ? search.dteam.toLowerCase() : undefined;
  const org = typeof search.dorg === 'string' && UUID.test(search.dorg) ? search.dorg.toLowerCase() : undefined;
  const split: { dsplit?: DrillSplit } = typeof search.dsplit === 'string' && SPLITS.includes(search.dsplit) ? { dsplit: search.dsplit as DrillSplit } : {};
  const days = typeof search.dfrom === 'string' && typeof search.dto === 'string' && DAY.test(search.dfrom) && DAY.test(search.dto) && search.dfrom <= search.dto ? { dfrom: search.dfrom, dto: search.dto } : {};
  return drill ? { drill, ...days, ...split, ...(Number.isInteger(page) && page > 1 && page <= 100_000 ? { dpage: page } : {}), ...(month ? { dmonth: month } : {}), ...(team ? { dteam: team } : {}), ...(org ? { dorg: org } : {}) } : {};
}
