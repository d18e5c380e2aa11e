/**
 * Filters of a Cube query: each operator checked against the member it filters, as Cube's query
 * format documents it, and date values normalised to the local timestamps the planner binds
 * (docs/cube-protocol.md "Filter operators"). The planner trusts its input; these checks are why that is safe.
 */
import type { ErrorDetail } from '../errors.js';
import type { CompiledCube } from './compiler.js';
import { absolutePoint, ABSOLUTE, relativeRange, resolveRange, validAbsolute } from './dates.js';
import { isUuid } from '../shared/schemas.js';

export const OPERATORS = [
  'equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith',
  'gt', 'gte', 'lt', 'lte', 'set', 'notSet', 'inDateRange', 'notInDateRange', 'onTheDate',
  'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate', 'measureFilter',
] as const;

export interface FilterInput {
  member?: string;
  dimension?: string;
  operator?: string;
  values?: (string | null)[];
  or?: FilterInput[];
  and?: FilterInput[];
}

const NUMERIC = new Set(['number', 'count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'running_total']);
const RANGE_OPERATORS = new Set(['inDateRange', 'notInDateRange', 'onTheDate']);
/** A bare date stands for its whole day: these compare with its first millisecond… */
const FROM_START = new Set(['beforeDate', 'afterOrOnDate']);
/** …and these with its last, so `afterDate 2025-03-01` starts on 2 March (Cube's gateway and Tesseract agree). */
const FROM_END = new Set(['beforeOrOnDate', 'afterDate']);
const DATE_OPERATORS = new Set([...RANGE_OPERATORS, ...FROM_START, ...FROM_END]);
const TEXT_OPERATORS = new Set(['contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith']);
const ORDER_OPERATORS = new Set(['gt', 'gte', 'lt', 'lte']);
/** The only operators of an id (a uuid column) or a boolean: anything else means nothing there. */
const EQUALITY_OPERATORS = new Set(['equals', 'notEquals', 'set', 'notSet']);
const NUMBER = /^-?\d+(\.\d+)?$/;

type Member = CompiledCube['members'][string];

/** The operators that mean something on a member, named when a filter uses another one. */
function operatorsOf(member: Member): string[] {
  const typed = member.format === 'id' || member.type === 'boolean';
  return OPERATORS.filter((op) => {
    if (op === 'measureFilter') return member.kind === 'measure';
    if (DATE_OPERATORS.has(op)) return member.type === 'time';
    if (TEXT_OPERATORS.has(op)) return !typed && member.type === 'string';
    if (ORDER_OPERATORS.has(op)) return !typed && NUMERIC.has(member.type);
    return true;
  });
}

/** The measures and dimensions a filter (group) names. */
export const filterMembers = (f: FilterInput): string[] => (f.or ?? f.and ?? []).flatMap(filterMembers).concat(f.member ?? f.dimension ?? []);

/**
 * Checks a filter (group) against the models and returns it with `member` set and date values as
 * local timestamps of `zone`. Problems go to `details`, each naming its path.
 */
export function checkFilter(cube: CompiledCube, f: FilterInput, path: string, zone: string, details: ErrorDetail[]): FilterInput {
  if (f.or || f.and) {
    const key = f.or ? 'or' : 'and';
    const kinds = new Set(filterMembers(f).map((m) => cube.members[m]?.kind).filter(Boolean));
    if (kinds.has('measure') && kinds.has('dimension')) details.push({ path, message: 'A filter group cannot mix measures and dimensions (a measure filters groups, a dimension rows)' });
    return { [key]: (f[key] as FilterInput[]).map((g, i) => checkFilter(cube, g, `${path}.${key}.${i}`, zone, details)) };
  }
  const name = f.member ?? f.dimension;
  if (!name || (f.member && f.dimension)) {
    details.push({ path, message: 'A filter names exactly one member' });
    return f;
  }
  const member = Object.hasOwn(cube.members, name) ? cube.members[name] : undefined;
  const operator = f.operator as string;
  const values = f.values ?? [];
  const problem = (at: 'member' | 'operator' | 'values', message: string) => details.push({ path: `${path}.${at}`, message });
  const wrongOperator = (message: string) => problem('operator', `${message}; ${name} takes ${operatorsOf(member as Member).join(', ')}`);
  if (!member) problem('member', `Unknown member ${name}`);
  else if (member.kind === 'segment') problem('member', `${name} is a segment: put it in segments`);
  if (!['set', 'notSet', 'measureFilter'].includes(operator) && values.length === 0) problem('values', `${operator} needs values`);
  const out: FilterInput = { member: name, operator, ...(f.values ? { values } : {}) };
  if (!member || member.kind === 'segment') return out;

  const typed = member.format === 'id' ? 'an id' : member.type === 'boolean' ? 'a boolean' : null;
  const numeric = NUMERIC.has(member.type);
  if (operator === 'measureFilter') {
    if (member.kind !== 'measure') wrongOperator(`measureFilter applies to measures; ${name} is a dimension`);
    return { member: name, operator };
  }
  if (DATE_OPERATORS.has(operator)) {
    if (member.type !== 'time') {
      wrongOperator(`${operator} applies to time dimensions only; ${name} is ${typed ?? `a ${member.type}`}`);
      return out;
    }
    return { ...out, values: dateValues(operator, values, zone, (message) => problem('values', message)) };
  }
  if (TEXT_OPERATORS.has(operator) && (typed || member.type !== 'string')) {
    wrongOperator(`${operator} applies to text members; ${name} is ${typed ?? `a ${member.type}`}`);
  } else if (ORDER_OPERATORS.has(operator) && !numeric) {
    wrongOperator(`${operator} applies to numbers; ${name} is ${typed ?? `a ${member.type}`}`);
  } else if (typed && !EQUALITY_OPERATORS.has(operator)) {
    wrongOperator(`${operator} does not apply to ${name}, ${typed}`);
  }
  const given = values.filter((v): v is string => v !== null);
  if (ORDER_OPERATORS.has(operator) && values.length !== given.length) problem('values', `${operator} takes numbers, not null`);
  if (member.type === 'time') {
    if (!given.every(validAbsolute)) problem('values', 'Values of a time filter are ISO 8601 dates');
  } else if (member.format === 'id') {
    if (!given.every((v) => isUuid(v))) problem('values', `Values of ${name} are UUIDs (8-4-4-4-12 hex digits)`);
  } else if (member.type === 'boolean') {
    if (!given.every((v) => v === 'true' || v === 'false')) problem('values', `Values of ${name} are true or false`);
  } else if (numeric && !given.every((v) => NUMBER.test(v))) {
    problem('values', `Values of ${name} are numbers`);
  }
  return out;
}

/**
 * Date values as Cube's gateway normalises them: a range operator takes one value (a day, a
 * timestamp or a relative range such as `last week`) or two; `onTheDate 2025-03-01` is that whole
 * day in the query's time zone, never "from that day on".
 */
function dateValues(operator: string, values: (string | null)[], zone: string, problem: (message: string) => void): string[] {
  if (values.some((v) => v === null)) {
    problem(`${operator} takes dates, not null`);
    return [];
  }
  const given = values as string[];
  const bad = given.find((v) => ABSOLUTE.test(v) && !validAbsolute(v));
  if (bad !== undefined) {
    problem(`Not a valid date: ${bad.slice(0, 40)}`);
    return [];
  }
  try {
    if (RANGE_OPERATORS.has(operator)) {
      if (given.length > 2) return problem(`${operator} takes one date (a whole day or a relative range) or two (a range)`), [];
      if (given.length === 2 && !given.every((v) => ABSOLUTE.test(v))) return problem('A relative range is one value, e.g. ["last 2 weeks"]'), [];
      const range = given.length === 1 ? resolveRange(given[0] as string, zone) : resolveRange(given, zone);
      if (range[0] > range[1]) problem('A date range is two ordered dates (from before to)');
      return range;
    }
    if (given.length !== 1) return problem(`${operator} takes one date`), [];
    const value = given[0] as string;
    const end = FROM_END.has(operator);
    if (ABSOLUTE.test(value)) return [absolutePoint(value, zone, end)];
    const [start, finish] = relativeRange(value, zone);
    return [end ? finish : start];
  } catch (error) {
    problem((error as Error).message);
    return [];
  }
}
