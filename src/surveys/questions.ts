/**
 * The fixed question set: five agreement statements answered on a 1–5 scale (1 strongly
 * disagree … 5 strongly agree) and one optional comment. The experience score maps each answer to
 * 0–100 ((answer − 1) × 25) and averages every answer of the responses.
 */
export const QUESTIONS = [
  { id: 'q1', text: 'I can get my work from idea to production without unnecessary waiting.' },
  { id: 'q2', text: 'Our tools, pipelines and environments help me deliver rather than slow me down.' },
  { id: 'q3', text: 'AI coding tools make me more productive in my daily work.' },
  { id: 'q4', text: 'I trust the quality of the code our team produces with AI assistance.' },
  { id: 'q5', text: 'Overall, I am satisfied with how our team delivers software.' },
] as const;

export const SCALE = ['Strongly disagree', 'Disagree', 'Neither agree nor disagree', 'Agree', 'Strongly agree'] as const;

export type QuestionId = (typeof QUESTIONS)[number]['id'];
export const COMMENT_MAX = 2000;
/** A team with fewer responses than this in a month shows no score, only its response rate. */
export const MIN_RESPONSES_FOR_SCORE = 3;
