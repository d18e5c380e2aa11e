import { useState } from 'react';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';
import { formatMonth } from '../lib/format';

const today = () => new Date().toISOString().slice(0, 10);

/** The two finance exports, as the API serves them (same bytes): links, so the browser downloads them itself. */
export function DownloadsPage() {
  usePageTitle('Downloads');
  const scope = useScope();
  const [asOf, setAsOf] = useState(today());
  const baseline = (format: string) => `/api/exports/team-baseline?${new URLSearchParams({ from: scope.from, to: scope.to, format })}`;
  const roster = (format: string) => `/api/exports/team-roster?${new URLSearchParams({ asOf, format })}`;
  return (
    <>
      <h1>Downloads for finance</h1>
      <section className="panel" aria-labelledby="dl-baseline">
        <h2 id="dl-baseline">Team baseline</h2>
        <p>
          One row per enabled team and month, {formatMonth(scope.from)} to {formatMonth(scope.to)} (change the window above). No amounts: cost_centre_code is a join key.
        </p>
        <p>
          <a href={baseline('csv')} download data-testid="baseline-csv">Team baseline (CSV)</a> · <a href={baseline('json')} download data-testid="baseline-json">Team baseline (JSON)</a>
        </p>
      </section>
      <section className="panel" aria-labelledby="dl-roster">
        <h2 id="dl-roster">Team roster</h2>
        <p>One row per person and team, as of a day (today or earlier); it always reflects current membership.</p>
        <label htmlFor="roster-as-of">As of</label> <input id="roster-as-of" type="date" value={asOf} max={today()} onChange={(e) => setAsOf(e.target.value || today())} />
        <p>
          <a href={roster('csv')} download data-testid="roster-csv">Team roster (CSV)</a> · <a href={roster('json')} download data-testid="roster-json">Team roster (JSON)</a>
        </p>
      </section>
    </>
  );
}
