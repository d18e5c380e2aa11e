const QUESTIONS = [
  { id: "q1", text: "I can get my work from idea to production without unnecessary waiting." },
  { id: "q2", text: "Our tools, pipelines and environments help me deliver rather than slow me down." },
  { id: "q3", text: "AI coding tools make me more productive in my daily work." },
  { id: "q4", text: "I trust the quality of the code our team produces with AI assistance." },
  { id: "q5", text: "Overall, I am satisfied with how our team delivers software." }
];
const SCALE = ["Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree", "Strongly agree"];
const COMMENT_MAX = 2e3;
const MIN_RESPONSES_FOR_SCORE = 3;
export {
  COMMENT_MAX,
  MIN_RESPONSES_FOR_SCORE,
  QUESTIONS,
  SCALE
};
