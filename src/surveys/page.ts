import { escapeHtml } from '../http/html.js';
import { COMMENT_MAX, QUESTIONS, SCALE } from './questions.js';

/**
 * The survey form: plain HTML that works without JavaScript, one fieldset per statement with
 * labelled radio buttons, so screen readers announce each question and each choice.
 */
function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111}
fieldset{border:1px solid #bbb;border-radius:6px;margin:0 0 1rem;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;margin:.2rem 0}
textarea{width:100%;min-height:6rem}
button{font-size:1rem;padding:.5rem 1.25rem}
.error{color:#a00}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface FormPage {
  title: string;
  teamName: string;
  closesOn: string;
  action: string;
  csrfToken: string;
  previous: Record<string, number | string | null> | null;
  errors?: string[];
}

export function renderSurveyForm(page: FormPage): string {
  const errors = page.errors?.length
    ? `<div class="error" role="alert"><p>Please correct the following:</p><ul>${page.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`
    : '';
  const questions = QUESTIONS.map((q, index) => {
    const choices = SCALE.map((label, i) => {
      const value = i + 1;
      const checked = page.previous?.[q.id] === value ? ' checked' : '';
      return `<label><input type="radio" name="${q.id}" value="${value}" required${checked}> ${value} – ${escapeHtml(label)}</label>`;
    }).join('\n');
    return `<fieldset>\n<legend>${index + 1}. ${escapeHtml(q.text)}</legend>\n${choices}\n</fieldset>`;
  }).join('\n');
  const comment = typeof page.previous?.comment === 'string' ? escapeHtml(page.previous.comment) : '';
  return layout(
    page.title,
    `<h1>${escapeHtml(page.title)}</h1>
<p>Team: ${escapeHtml(page.teamName)}. Your answers are anonymous: they are counted for your team and month only, and no score is shown for a team with fewer than three answers. You can change them by opening this link again until ${escapeHtml(page.closesOn)}.</p>
${errors}
<form method="post" action="${escapeHtml(page.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(page.csrfToken)}">
${questions}
<p><label for="comment">Anything else you want to tell us? (optional)</label>
<textarea id="comment" name="comment" maxlength="${COMMENT_MAX}">${comment}</textarea></p>
<p><button type="submit">Submit answers</button></p>
</form>`,
  );
}

export function renderThankYou(title: string, closesOn: string, updated: boolean): string {
  return layout(
    'Thank you',
    `<h1>Thank you</h1>
<p>Your answers to “${escapeHtml(title)}” were ${updated ? 'updated' : 'recorded'}. You can change them by opening your link again until ${escapeHtml(closesOn)}.</p>`,
  );
}

const PROBLEMS = {
  invalid: ['Link not valid', 'This survey link is not valid. Check that you copied the whole link from your invitation.'],
  expired: ['Survey closed', 'This survey link has expired: the survey is closed.'],
  closed: ['Survey closed', 'This survey is closed and no longer accepts answers. Thank you for your interest.'],
  not_open: ['Survey not open yet', 'This survey is not open yet.'],
  stale_form: ['Form expired', 'This form has expired or was sent from another site. Open your survey link again and submit your answers.'],
} as const;

export function renderLinkProblem(kind: keyof typeof PROBLEMS, opensOn?: string): string {
  const [title, text] = PROBLEMS[kind];
  const extra = kind === 'not_open' && opensOn ? ` It opens on ${escapeHtml(opensOn)}.` : '';
  return layout(title, `<h1>${title}</h1>\n<p>${text}${extra}</p>`);
}
