import { usePageTitle } from '../lib/usePageTitle';

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
    </>
  );
}
