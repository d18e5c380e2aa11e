import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TOUCHES, useChange } from '../../api/change';
import { api } from '../../api/client';
import { apiQuery, cubeQuery, num } from '../../api/cube';
import type { Data, List, Survey, SurveyInput, Team } from '../../api/contract';
import { ConfirmButton, Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { ErrorNote } from '../../components/states';
import { formatRatio, formatScore } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';


const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function CreateSurvey() {
  const teams = useQuery(apiQuery('GET /api/teams', { query: { enabled: 'true', perPage: 100 } }));
  const create = useChange((body: SurveyInput) => api('POST /api/surveys', { json: body }), [['api', '/api/surveys']]);
  const { errors, form } = useFormErrors(create.error, ['title', 'teams', 'opensOn', 'closesOn']);
  return (
    <section className="panel" aria-labelledby="create-survey-title">
      <h2 id="create-survey-title">Start a survey</h2>
      <p className="muted">
        Five statements on a 1–5 scale and an optional comment, sent to every current member of the chosen teams. Answers are anonymous: only the team is kept, and a team’s score is shown
        from 3 responses on.
      </p>
      <form
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          create.mutate(
            { title: String(data.get('title') ?? ''), teams: data.getAll('teams').map(String), opensOn: String(data.get('opensOn') || today()), closesOn: String(data.get('closesOn') ?? '') },
            { onSuccess: () => form.current?.reset() },
          );
        }}
      >
        <FormAlert errors={errors} />
        <Field form="survey" name="title" label="Title" errors={errors}>
          <input {...fieldProps('survey', 'title', errors)} maxLength={200} />
        </Field>
        <fieldset className="field" aria-describedby="survey-teams-error" aria-invalid={errors.field('teams') ? true : undefined}>
          <legend>Teams</legend>
          {teams.isError && <ErrorNote error={teams.error} />}
          {(teams.data?.data ?? []).map((t) => (
            <label key={t.id}>
              <input type="checkbox" name="teams" value={t.slug} /> {t.name}
            </label>
          ))}
          {teams.data && teams.data.data.length === 0 && <p className="empty">No enabled team: import a register first.</p>}
          <p id="survey-teams-error" className="field-error">
            {errors.field('teams')}
          </p>
        </fieldset>
        <div className="form-row">
          <Field form="survey" name="opensOn" label="Opens on" errors={errors}>
            <input {...fieldProps('survey', 'opensOn', errors)} type="date" defaultValue={today()} />
          </Field>
          <Field form="survey" name="closesOn" label="Closes on" errors={errors}>
            <input {...fieldProps('survey', 'closesOn', errors)} type="date" defaultValue={inDays(14)} />
          </Field>
        </div>
        <button className="primary" disabled={create.isPending}>
          Start survey
        </button>
      </form>
    </section>
  );
}

/** Per team, from the survey_results cube: the rate, and the score only from 3 responses. */
function Results({ survey }: { survey: Survey }) {
  const results = useQuery(
    cubeQuery({
      measures: ['survey_results.survey_invitations', 'survey_results.survey_responses', 'survey_results.survey_answer_rate', 'survey_results.survey_experience_score'],
      dimensions: ['teams.id', 'teams.name'],
      filters: [{ member: 'survey_results.survey_id', operator: 'equals', values: [survey.id] }],
      order: [['teams.name', 'asc']],
    }),
  );
  if (results.isError) return <ErrorNote error={results.error} onRetry={() => void results.refetch()} />;
  if (!results.data) return <p className="muted">Loading results…</p>;
  return (
    <table data-testid={`results-${survey.id}`}>
      <caption>Results of “{survey.title}” by team</caption>
      <thead>
        <tr>
          <th scope="col">Team</th>
          <th scope="col" className="num">
            Invited
          </th>
          <th scope="col" className="num">
            Responses
          </th>
          <th scope="col" className="num">
            Response rate
          </th>
          <th scope="col" className="num">
            Experience score (0–100)
          </th>
        </tr>
      </thead>
      <tbody>
        {results.data.data.map((r) => {
          const rate = num(r, 'survey_results.survey_answer_rate');
          const score = num(r, 'survey_results.survey_experience_score');
          const responses = num(r, 'survey_results.survey_responses') ?? 0;
          return (
            <tr key={String(r['teams.id'])}>
              <th scope="row">{String(r['teams.name'])}</th>
              <td className="num">{num(r, 'survey_results.survey_invitations')}</td>
              <td className="num">{responses}</td>
              <td className="num">{rate === null ? '—' : formatRatio(rate)}</td>
              <td className="num">
                {score !== null ? (
                  <>
                    {formatScore(score)} <span className="n">n = {responses}</span>
                  </>
                ) : (
                  <span className="muted">{responses === 0 ? 'no response yet' : `hidden: fewer than 3 responses (${responses})`}</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A survey's actions: its results folded under it, its links (owner), closing it (owner, while open). */
function SurveyActions({ survey, manage, open, onToggle }: { survey: Survey; manage: boolean; open: boolean; onToggle: () => void }) {
  const close = useChange(() => api('POST /api/surveys/:id/close', { params: { id: survey.id } }), TOUCHES.everything);
  return (
    <>
      <button type="button" aria-expanded={open} onClick={onToggle}>
        {open ? 'Hide results' : 'Results'}
      </button>{' '}
      {manage && (
        <>
          <a href={`/api/surveys/${survey.id}/links`} download>
            Download links
          </a>{' '}
          {survey.status === 'open' && (
            <ConfirmButton label="Close" confirmLabel="Close survey" question={`Close “${survey.title}” now? Its links stop accepting answers.`} onConfirm={() => close.mutate()} />
          )}
        </>
      )}
      {close.isError && <ErrorNote error={close.error} />}
    </>
  );
}

export function SurveysSettingsPage() {
  usePageTitle('Surveys');
  const manage = useCan()('survey.manage') === true;
  const [page, setPage] = useState(1);
  const surveys = useQuery({ ...apiQuery('GET /api/surveys', { query: { page, perPage: 20 } }), placeholderData: (prev) => prev });
  // Unfolded results, by survey: any number at once.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <>
      <h1>Surveys</h1>
      {manage && <CreateSurvey />}
      <ListPanel
        title="Surveys"
        id="surveys"
        query={surveys}
        height={160}
        onPage={setPage}
        intro={
          <p className="muted">
            Each person gets a personal link by e-mail when the server has a mailer; otherwise download the links and send them yourself. The Perception page shows the scores by month.
          </p>
        }
        rowKey={(s) => s.id}
        columns={[
          { key: 'title', header: 'Survey', cell: (s) => s.title },
          {
            key: 'window',
            header: 'Window',
            cell: (s) => (
              <>
                {s.opensOn} – {s.closesOn}
              </>
            ),
          },
          { key: 'status', header: 'Status', cell: (s) => (s.status === 'open' ? 'open' : `closed${s.closedAt ? ` ${s.closedAt.slice(0, 10)}` : ''}`) },
          {
            key: 'responses',
            header: 'Responses',
            numeric: true,
            cell: (s) => (
              <>
                {s.counts.responses} of {s.counts.invitations}
              </>
            ),
          },
        ]}
        actions={(s) => <SurveyActions survey={s} manage={manage} open={open.has(s.id)} onToggle={() => toggle(s.id)} />}
        rowDetail={(s) => (open.has(s.id) ? <Results survey={s} /> : null)}
        empty={<>No survey yet.{manage ? ' Start one above.' : ' An owner starts them.'}</>}
      />
    </>
  );
}
