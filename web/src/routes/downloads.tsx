import { useState } from 'react';
import { DownloadLink } from '../components/DownloadLink';
import { FormAlert, formErrors } from '../components/Form';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';
import { formatMonth } from '../lib/format';

const today = () => new Date().toISOString().slice(0, 10);

/** The two finance exports, as the API serves them (same bytes); a refused request is said on the page. */
export function DownloadsPage() {
  usePageTitle('Downloads');
  const scope = useScope();
  const [asOf, setAsOf] = useState(today());
  const [baselineError, setBaselineError] = useState<unknown>(null);
  const [rosterError, setRosterError] = useState<unknown>(null);
  const baseline = (format: string) => `/api/exports/team-baseline?${new URLSearchParams({ from: scope.from, to: scope.to, format })}`;
  const roster = (format: string) => `/api/exports/team-roster?${new URLSearchParams({ asOf, format })}`;
  const rosterErrors = formErrors(rosterError, ['query.asOf']);
  const asOfError = rosterErrors.field('query.asOf');
  return (
    <>
      <h1>Downloads for finance</h1>
      <section className="panel" aria-labelledby="dl-baseline">
        <h2 id="dl-baseline">Team baseline</h2>
        <p>
          One row per enabled team and month, {formatMonth(scope.from)} to {formatMonth(scope.to)} (change the window above). No amounts: cost_centre_code is a join key.
        </p>
        <FormAlert errors={formErrors(baselineError, [])} />
        <p>
          <DownloadLink href={baseline('csv')} onResult={setBaselineError} testId="baseline-csv">Team baseline (CSV)</DownloadLink> ·{' '}
          <DownloadLink href={baseline('json')} onResult={setBaselineError} testId="baseline-json">Team baseline (JSON)</DownloadLink>
        </p>
      </section>
      <section className="panel" aria-labelledby="dl-roster">
        <h2 id="dl-roster">Team roster</h2>
        <p>One row per person and team, as of a day (today or earlier); it always reflects current membership.</p>
        <FormAlert errors={rosterErrors} />
        <div className="field">
          <label htmlFor="roster-as-of">As of</label>{' '}
          <input
            id="roster-as-of"
            type="date"
            value={asOf}
            max={today()}
            aria-invalid={asOfError ? true : undefined}
            aria-describedby="roster-as-of-error"
            onChange={(e) => {
              setAsOf(e.target.value || today());
              setRosterError(null);
            }}
          />
          <p id="roster-as-of-error" className="field-error" role={asOfError ? 'alert' : undefined}>
            {asOfError && `The roster was not downloaded: the day ${asOfError.charAt(0).toLowerCase()}${asOfError.slice(1)}.`}
          </p>
        </div>
        <p>
          <DownloadLink href={roster('csv')} onResult={setRosterError} testId="roster-csv">Team roster (CSV)</DownloadLink> ·{' '}
          <DownloadLink href={roster('json')} onResult={setRosterError} testId="roster-json">Team roster (JSON)</DownloadLink>
        </p>
      </section>
    </>
  );
}
