import Router from '@koa/router';
import { stringify } from 'csv-stringify/sync';
import { SAFE_CSV } from '../shared/csv.js';
import type { AppContext } from '../context.js';
import { checkFormToken, checkOrigin, issueCsrfToken } from '../auth/csrf.js';
import { AppError } from '../errors.js';
import { presentSurvey } from './presenters.js';
import { COMMENT_MAX, QUESTIONS } from './questions.js';
import { renderLinkProblem, renderSurveyForm, renderThankYou } from './page.js';
import {
  closeSurvey, createSurvey, getSurvey, LinkProblem, listSurveys, openInvitation, submitResponse, surveyCounts, surveyLinks, type Answers,
} from './service.js';
import { readBody } from '../http/body.js';
import { SEND_INVITATIONS_JOB } from './jobs.js';
import { mailerConfigured } from '../mail/mailer.js';
import { sendPage } from '../http/html.js';
import { download, listEnvelope, Paging, route, type ApiRouter } from '../http/route.js';
import { CreateSurveyBody, SurveyParams, TokenParams } from './schemas.js';

const LINK_STATUS = { invalid: 404, expired: 410, closed: 410, not_open: 403 } as const;
const FORM_LIMIT = 32 * 1024;

function parseAnswers(form: Record<string, string>): { answers: Answers | null; errors: string[] } {
  const errors: string[] = [];
  const values: Record<string, number> = {};
  QUESTIONS.forEach((q, index) => {
    const raw = form[q.id];
    if (raw === undefined || !/^[1-5]$/.test(raw)) errors.push(`Statement ${index + 1}: choose one answer from 1 to 5.`);
    else values[q.id] = Number(raw);
  });
  const comment = (form.comment ?? '').trim();
  if (comment.length > COMMENT_MAX) errors.push(`The comment is longer than ${COMMENT_MAX} characters.`);
  if (errors.length) return { answers: null, errors };
  return { answers: { q1: values.q1!, q2: values.q2!, q3: values.q3!, q4: values.q4!, q5: values.q5!, comment: comment || null }, errors };
}

/** What the person just sent, so a form with errors comes back as they filled it. */
function resubmitted(form: Record<string, string>): Record<string, number | string> {
  const values: Record<string, number | string> = { comment: form.comment ?? '' };
  for (const q of QUESTIONS) if (/^[1-5]$/.test(form[q.id] ?? '')) values[q.id] = Number(form[q.id]);
  return values;
}

export function surveyRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;
  const deps = { db, config: app.config, log: app.log };

  router.post('/api/surveys', route(app, { auth: { policy: 'survey.manage' }, body: CreateSurveyBody }, async ({ principal, body }) => {
    const survey = await createSurvey(deps, principal, { title: body.title, teams: body.teams, opensOn: body.opensOn ?? new Date().toISOString().slice(0, 10), closesOn: body.closesOn, sendBy: body.sendBy });
    // Hundreds of messages do not belong in the request: a job sends them, retrying failures.
    if (body.sendBy !== 'email' || mailerConfigured(app.config)) await app.jobs.send(SEND_INVITATIONS_JOB, { tenantId: principal.tenantId, surveyId: survey.id });
    const { teams } = await getSurvey(db, principal, survey.id);
    return { status: 201, body: { data: presentSurvey(survey, teams), meta: {} } };
  }));

  router.get('/api/surveys', route(app, { auth: 'required', query: Paging }, async ({ principal, query }) => {
    const { rows, total } = await listSurveys(db, principal, query);
    const counts = await surveyCounts(db, rows.map((r) => r.id));
    return { body: listEnvelope(rows.map((r) => presentSurvey(r, counts.get(r.id) ?? [])), query, total) };
  }));

  router.get('/api/surveys/:id', route(app, { auth: 'required', params: SurveyParams }, async ({ principal, params }) => {
    const { survey, teams } = await getSurvey(db, principal, params.id);
    return { body: { data: presentSurvey(survey, teams), meta: {} } };
  }));

  router.post('/api/surveys/:id/close', route(app, { auth: { policy: 'survey.manage' }, params: SurveyParams }, async ({ principal, params }) => {
    const survey = await closeSurvey(db, principal, params.id);
    const { teams } = await getSurvey(db, principal, survey.id);
    return { body: { data: presentSurvey(survey, teams), meta: {} } };
  }));

  router.get('/api/surveys/:id/links', route(app, { auth: { policy: 'survey.manage' }, params: SurveyParams }, async ({ principal, params }) => {
    const rows = await surveyLinks(deps, principal, params.id);
    const csv = stringify(rows, { ...SAFE_CSV, header: true, columns: ['email', 'display_name', 'team_slug', 'link'] });
    return download({ contentType: 'text/csv; charset=utf-8', filename: `survey-${params.id}-links.csv`, body: csv });
  }));

  // The signed token is the credential: no login, and no per-address limit (a whole office may
  // share one address); a forged token is refused before any table is read.
  router.get('/s/:token', route(app, { system: 'authentication', auth: 'none', limit: 'none', params: TokenParams }, async ({ ctx, params }) => {
    try {
      const opened = await openInvitation(deps, params.token);
      sendPage(ctx, 200, renderSurveyForm({
        title: opened.survey.title, teamName: opened.teamName, closesOn: opened.survey.closesOn,
        action: `/s/${params.token}`, csrfToken: issueCsrfToken(ctx, app.config.production), previous: opened.previous,
      }));
    } catch (error) {
      if (!(error instanceof LinkProblem)) throw error;
      sendPage(ctx, LINK_STATUS[error.kind], renderLinkProblem(error.kind, error.survey?.opensOn));
    }
  }));

  router.post('/s/:token', route(app, { system: 'authentication', auth: 'none', limit: 'none', params: TokenParams }, async ({ ctx, params }) => {
    try {
      // A dead link says so whatever the form carries; only a live one gets to the CSRF check.
      await openInvitation(deps, params.token);
      checkOrigin(ctx, app.config.appUrl);
      const form = (await readBody(ctx, 'form', FORM_LIMIT)) as Record<string, string>;
      checkFormToken(ctx, form.csrf);
      const { answers, errors } = parseAnswers(form);
      if (!answers) {
        const opened = await openInvitation(deps, params.token);
        sendPage(ctx, 400, renderSurveyForm({
          title: opened.survey.title, teamName: opened.teamName, closesOn: opened.survey.closesOn,
          action: `/s/${params.token}`, csrfToken: issueCsrfToken(ctx, app.config.production), previous: { ...opened.previous, ...resubmitted(form) }, errors,
        }));
        return;
      }
      const { survey, updated } = await submitResponse(deps, params.token, answers);
      sendPage(ctx, 200, renderThankYou(survey.title, survey.closesOn, updated));
    } catch (error) {
      if (error instanceof LinkProblem) {
        sendPage(ctx, LINK_STATUS[error.kind], renderLinkProblem(error.kind, error.survey?.opensOn));
        return;
      }
      if (error instanceof AppError && error.code === 'forbidden') {
        sendPage(ctx, 403, renderLinkProblem('stale_form'));
        return;
      }
      throw error;
    }
  }));

  return router;
}
