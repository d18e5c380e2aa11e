import { usePageTitle } from '../lib/usePageTitle';
import { MEASURED_CORPUS } from '../../../src/shared/measuredCorpus';

const origin = () => location.origin;

/** Where the empty states' "fix" links lead: how data gets in. */
export function HelpPage() {
  usePageTitle('Getting data in');
  return (
    <>
      <h1>Getting data in</h1>
      <section className="panel" id="deployments" aria-labelledby="help-deployments">
        <h2 id="help-deployments">Deployments and issues</h2>
        <p>CI pipelines and trackers send deployments and issues to the webhook API with an API key. Data counts for a team once the team owns the project (<code>project:assign</code> or <code>PATCH /api/teams/:id</code>).</p>
        <pre>{`curl -X POST ${origin()}/api/webhooks/v1/deployments \\
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' \\
  -d '{"projectKey":"acme/api","externalId":"run-1","ref":"main","sha":"abc1234","environment":"production","status":"success"}'`}</pre>
      </section>
      <section className="panel" id="register" aria-labelledby="help-register">
        <h2 id="help-register">Teams and people (the register)</h2>
        <p>Import the organisation register as CSV; teams, memberships and headcounts come from it.</p>
        <pre>{`curl -X POST ${origin()}/api/register/imports -H "Authorization: Bearer $API_KEY" \\
  -H 'Content-Type: text/csv' --data-binary @register.csv`}</pre>
      </section>
      <section className="panel" id="surveys" aria-labelledby="help-surveys">
        <h2 id="help-surveys">Surveys</h2>
        <p>An owner creates a survey for teams and shares its links; a team's experience score appears from 3 responses in a month.</p>
      </section>
      <section className="panel" id="open-source-benchmark" aria-labelledby="help-open-source-benchmark">
        <h2 id="help-open-source-benchmark">Open-source benchmark</h2>
        <p data-testid="help-corpus-summary">
          The open-source percentiles rank among repository months measured from the public history of {MEASURED_CORPUS.repositories.length} repositories, read on {MEASURED_CORPUS.readOn} ({MEASURED_CORPUS.windowFrom.slice(0, 7)} to {MEASURED_CORPUS.windowTo.slice(0, 7)}):
          release tags for deployments, a commit to the first release tag holding it for lead time for changes, for change failure, the share of releases followed within 7 days by a patch release or a revert (the shipped rows were measured before this definition, so until they are measured again change failure has no percentile). They are proxies: git history holds no deployment and no incident. With <code>CODEHOST_PUBLIC_TOKEN</code> set, the server measures its own corpus from the code host instead (without lead time for changes, which only git history gives).
        </p>
        <ul data-testid="help-corpus-repositories">
          {MEASURED_CORPUS.repositories.map((r) => <li key={r}>{r}</li>)}
        </ul>
        {MEASURED_CORPUS.leftOut.length > 0 && (
          <p className="muted" data-testid="help-corpus-left-out">
            Read but left out, as not active (a change by a person in fewer than 9 of the 12 months) or as more than a team (more than 60 PR authors in a month):{' '}
            {MEASURED_CORPUS.leftOut.map((r) => `${r.repository} (${r.reason})`).join(', ')}.
          </p>
        )}
      </section>
    </>
  );
}
