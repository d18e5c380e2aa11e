/**
 * The Teams page's comparison (issue 33 point 6): a team's value beside the teams' median and the
 * previous window of equal length, the change named better or worse by the measure's direction.
 * The values are the cube's; the page only orders them (a median of the teams' values) and compares
 * two numbers.
 */

/** Which way a measure improves; null when neither way is better (headcount, AI adoption). */
export type Direction = 'higher' | 'lower' | null;

/**
 * The median of the teams' values: the middle one in order, or the mean of the two middle ones.
 * Teams without a value ("no incident closed", "no deployment source") are left out, as a median
 * of durations leaves out what did not happen; a count of nothing in the window is a value, 0 (the
 * Teams page passes it as such). Null when no team has a value.
 */
export function teamsMedian(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = (v.length - 1) / 2;
  return (v[Math.floor(mid)]! + v[Math.ceil(mid)]!) / 2;
}

/**
 * How a value moved from the previous window, in words (never colour alone): "up, better",
 * "down, worse", "up", "no change"; null when either window has no value.
 */
export function changeWords(current: number | null, previous: number | null, direction: Direction, shown?: (v: number) => string): string | null {
  if (current === null || previous === null) return null;
  // Two values that read the same on the page are no change (18.2 h and 18.2 h), whatever the digits behind them.
  if (current === previous || (shown !== undefined && shown(current) === shown(previous))) return 'no change';
  const up = current > previous;
  const word = up ? 'up' : 'down';
  if (direction === null) return word;
  return `${word}, ${up === (direction === 'higher') ? 'better' : 'worse'}`;
}
