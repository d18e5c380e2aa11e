import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { aiImpactOf, type AiImpactBody, type DifferenceBody, type Level, type MeasureRow, type SideBody } from '../api/queries/aiImpact';
import { useActiveOrganisation } from '../api/me';
import { DrillLink, DrillPanel } from '../components/Drill';
import { Panel } from '../components/states';
import { formatCount, formatMonth, formatRatio, formatSeconds } from '../lib/format';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';
import { lastDay } from '../lib/window';

type Unit = MeasureRow<'ai', 'other'>['unit'];

const lines = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const formatUnit = (v: number, unit: Unit) => (unit === 'seconds' ? formatSeconds(v) : unit === 'ratio' ? formatRatio(v) : `${lines.format(v)} lines`);
/** A difference keeps its sign: "+2.0 h", "−47.5 lines", "+10%" (percentage points for shares). */
function formatSigned(v: number, unit: Unit): string {
  const size = unit === 'ratio' ? `${lines.format(Math.abs(v) * 100)} pp` : formatUnit(Math.abs(v), unit);
  return `${v < 0 ? '−' : v > 0 ? '+' : ''}${size}`;
}

function Difference({ d, unit, testId, noun }: { d: DifferenceBody; unit: Unit; testId: string; noun: string }) {
  if (d.status === 'not_enough_data') return <span data-testid={testId}>Not enough data (fewer than {d.minimum} {noun} on a side)</span>;
  return (
    <span data-testid={testId}>
      {formatSigned(d.value, unit)} <span className="muted">(90 % interval {formatSigned(d.low, unit)} to {formatSigned(d.high, unit)}, {d.method})</span>
    </span>
  );
}

/** A before/after value opens its own window's list (days, as a chart's partial month does). */
function WindowLink({ measure, title, window, children }: { measure: string; title: string; window: { from: string; to: string }; children: ReactNode }) {
  const org = useActiveOrganisation();
  const [dfrom, dto] = [`${window.from}-01`, lastDay(window.to)];
  return (
    <Link to="." search={((prev: Record<string, unknown>) => ({ ...prev, drill: measure, dpage: undefined, dmonth: undefined, dteam: undefined, dfrom, dto, dorg: org, dsplit: undefined })) as never} title={`List the facts behind ${title}, ${formatMonth(window.from)} to ${formatMonth(window.to)}`}>
      {children}
    </Link>
  );
}

function Value({ side, unit }: { side: SideBody; unit: Unit }) {
  return <>{side.value === null ? 'No value' : formatUnit(side.value, unit)}</>;
}

const LEVEL_LABELS: [Level, string][] = [['high', 'High'], ['medium', 'Medium'], ['low', 'Low'], ['none', 'None']];
/** What a measure's n counts: its PRs, or for the change failure rate the deployments that shipped them. */
const nounOf = (row: { cube: string }) => (row.cube === 'change_lead_times' ? 'deployments' : 'PRs');

function MeasureTable<A extends string, B extends string>({ row, sides, link, levelLink, testId }: {
  row: MeasureRow<A, B>;
  sides: [A | B, string, A | B, string];
  link: (side: A | B, children: ReactNode) => ReactNode;
  /** AI against not: a compact row per attribution level (value, n), each opening its level's list. */
  levelLink?: (level: Level, children: ReactNode) => ReactNode;
  testId: string;
}) {
  const [a, aLabel, b, bLabel] = sides;
  const noun = nounOf(row);
  return (
    <table data-testid={testId} data-measure={row.key}>
      <caption>{row.title}</caption>
      <thead>
        <tr>
          <th scope="col">{noun === 'PRs' ? 'PRs' : 'Deployments of'}</th>
          <th scope="col" className="num">Value</th>
          <th scope="col" className="num">n</th>
        </tr>
      </thead>
      <tbody>
        {([[a, aLabel], [b, bLabel]] as [A | B, string][]).map(([side, label]) => (
          <tr key={side} data-side={side}>
            <th scope="row">{label}</th>
            <td className="num">{link(side, <Value side={(row.sides as Record<string, SideBody>)[side]!} unit={row.unit} />)}</td>
            <td className="num">{formatCount((row.sides as Record<string, SideBody>)[side]!.n)}</td>
          </tr>
        ))}
      </tbody>
      {row.levels && levelLink ? (
        <tbody data-testid={`${testId}-levels`}>
          <tr>
            <th scope="rowgroup" colSpan={3} className="muted">By AI attribution level</th>
          </tr>
          {LEVEL_LABELS.map(([level, label]) => (
            <tr key={level} data-level={level}>
              <th scope="row">{label}</th>
              <td className="num">{row.levels![level].n === 0 ? <Value side={row.levels![level]} unit={row.unit} /> : levelLink(level, <Value side={row.levels![level]} unit={row.unit} />)}</td>
              <td className="num">{formatCount(row.levels![level].n)}</td>
            </tr>
          ))}
        </tbody>
      ) : null}
      <tfoot>
        <tr>
          <th scope="row">Difference</th>
          <td colSpan={2}>
            <Difference d={row.difference} unit={row.unit} testId={`${testId}-difference`} noun={noun} />
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function BeforeAfter({ body }: { body: AiImpactBody['data'] }) {
  const ba = body.beforeAfter;
  if (ba.status !== 'ok') return <p data-testid="before-after-none">{ba.message}.</p>;
  return (
    <>
      <p data-testid="adoption-month">
        Adoption month {formatMonth(ba.adoptionMonth)}: {ba.activeUsers} of {ba.headcount} people used AI. Before: {formatMonth(ba.before.from)} to {formatMonth(ba.before.to)}; after: {formatMonth(ba.after.from)} to {formatMonth(ba.after.to)}. Difference = after − before.
      </p>
      <div className="ai-impact-grid">
        {ba.measures.map((row) => (
          <MeasureTable key={row.key} row={row} testId={`before-after-${row.key}`} sides={['before', 'Before', 'after', 'After']}
            link={(side, children) => <WindowLink measure={row.drill} title={row.title} window={side === 'after' ? ba.after : ba.before}>{children}</WindowLink>} />
        ))}
      </div>
    </>
  );
}

/**
 * What AI-assisted coding changes (issue 47 point 3; docs/ai-impact.md): every flow and quality
 * measure for the AI-assisted merged PRs and the others, with n and the difference's 90 %
 * interval, then before/after the team's adoption month. Every number comes from
 * `GET /api/ai-impact`; the page only formats it. No person is ranked: people appear only in the
 * drill lists.
 */
export function AiImpactPage() {
  usePageTitle('AI impact');
  const scope = useScope();
  const { window, query, levels: levelsQuery } = aiImpactOf(scope);
  const impact = useQuery({ ...query, placeholderData: (previous) => previous });
  // Asked once the comparison has answered: the levels are a second full read of the window, and
  // the comparison, the page's answer, should not share the server with it (docs/ai-impact.md).
  const levels = useQuery({ ...levelsQuery, enabled: impact.isSuccess });
  const body = impact.data?.data;
  const levelsOf = (key: string) => levels.data?.data.levels[key];
  const titles = Object.fromEntries((body?.measures ?? []).map((m) => [m.drill, m.title]));
  return (
    <>
      <h1>AI impact</h1>
      <p data-testid="ai-impact-intro">
        Merged pull requests that are AI-assisted against the others{body?.team ? ` for ${body.team.name}` : ' across the organisation'}, {formatMonth(window.from)} to {formatMonth(window.to)}: medians with a bootstrap
        interval, shares with a normal one, both at 90 %. AI-assisted = attribution level high or medium; each table also gives every level's value and n. Difference = AI-assisted − not. Under 20 PRs on either side there is no difference (for the change failure rate, 20 deployments). A value opens the PRs behind it: its side's or level's for AI against not, every PR of the window before or after adoption; the change failure rate opens the window's deployments.
      </p>
      <Panel id="ai-against-not" title="AI-assisted against not" query={impact} height={240}>
        {() => (
          <div className="ai-impact-grid">
            {body!.measures.map((row) => (
              <MeasureTable key={row.key} row={{ ...row, levels: row.levels ?? levelsOf(row.key) }} testId={`ai-impact-${row.key}`} sides={['ai', 'AI-assisted', 'other', 'Not AI-assisted']}
                link={(side, children) => <DrillLink measure={row.drill} title={`${row.title}, ${side === 'ai' ? 'AI-assisted' : 'not AI-assisted'}`} split={row.drillSplits ? side : undefined}>{children}</DrillLink>}
                levelLink={(level, children) => <DrillLink measure={row.drill} title={`${row.title}, AI attribution ${level}`} split={row.drillSplits ? level : undefined}>{children}</DrillLink>} />
            ))}
          </div>
        )}
      </Panel>
      <Panel id="before-after" title="Before and after adoption" query={impact} height={120}>
        {() => <BeforeAfter body={body!} />}
      </Panel>
      <DrillPanel scope={scope} titles={titles} />
    </>
  );
}
