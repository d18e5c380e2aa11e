import { hidden, html, join } from "../http/html.js";
import { COMMENT_MAX, QUESTIONS, SCALE } from "./questions.js";
function layout(title, body) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
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
function renderSurveyForm(page) {
  const errors = page.errors?.length ? html`<div class="error" role="alert"><p>Please correct the following:</p><ul>${page.errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : "";
  const questions = QUESTIONS.map((q, index) => {
    const choices = SCALE.map((label, i) => {
      const value = i + 1;
      const checked = page.previous?.[q.id] === value ? " checked" : "";
      return html`<label><input type="radio" name="${q.id}" value="${value}" required${checked}> ${value} – ${label}</label>`;
    });
    return html`<fieldset>\n<legend>${index + 1}. ${q.text}</legend>\n${join(choices, "\n")}\n</fieldset>`;
  });
  const comment = typeof page.previous?.comment === "string" ? page.previous.comment : "";
  return layout(
    page.title,
    html`<h1>${page.title}</h1>
<p>Team: ${page.teamName}. Your answers are anonymous: they are counted for your team and month only, and no score is shown for a team with fewer than three answers. You can change them by opening this link again until ${page.closesOn}.</p>
${errors}
<form method="post" action="${page.action}">
${hidden("csrf", page.csrfToken)}
${join(questions, "\n")}
<p><label for="comment">Anything else you want to tell us? (optional)</label>
<textarea id="comment" name="comment" maxlength="${COMMENT_MAX}">${comment}</textarea></p>
<p><button type="submit">Submit answers</button></p>
</form>`
  );
}
function renderThankYou(title, closesOn, updated) {
  return layout(
    "Thank you",
    html`<h1>Thank you</h1>
<p>Your answers to “${title}” were ${updated ? "updated" : "recorded"}. You can change them by opening your link again until ${closesOn}.</p>`
  );
}
const PROBLEMS = {
  invalid: ["Link not valid", "This survey link is not valid. Check that you copied the whole link from your invitation."],
  expired: ["Survey closed", "This survey link has expired: the survey is closed."],
  closed: ["Survey closed", "This survey is closed and no longer accepts answers. Thank you for your interest."],
  not_open: ["Survey not open yet", "This survey is not open yet."],
  stale_form: ["Form expired", "This form has expired or was sent from another site. Open your survey link again and submit your answers."]
};
function renderLinkProblem(kind, opensOn) {
  const [title, text] = PROBLEMS[kind];
  const extra = kind === "not_open" && opensOn ? html` It opens on ${opensOn}.` : "";
  return layout(title, html`<h1>${title}</h1>\n<p>${text}${extra}</p>`);
}
export {
  renderLinkProblem,
  renderSurveyForm,
  renderThankYou
};
