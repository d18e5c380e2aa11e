import { environmentChain, modelChain } from "./settings.js";
function presentSummary(row) {
  return row ? { text: row.text, model: row.model, createdAt: row.createdAt.toISOString() } : null;
}
function presentAssessment(row) {
  if (!row) return null;
  const { taskCompleted, testsRun, reworkNeeded, riskyActions, score, rationale, model } = row;
  return { score, taskCompleted, testsRun, reworkNeeded, riskyActions, rationale, model, createdAt: row.createdAt.toISOString() };
}
function presentAiSettings(config, row) {
  const organisation = Boolean(row?.provider && row.apiKeySealed && row.models.length > 0);
  const names = (feature) => environmentChain(config, feature).map((c) => `${c.provider}:${c.model}`);
  return {
    provider: row?.provider ?? null,
    models: row?.models ?? [],
    apiKeySet: Boolean(row?.apiKeySealed),
    monthlyTokenBudget: row?.monthlyTokenBudget ?? null,
    source: organisation ? "organisation" : names("summary").length + names("notebook").length > 0 ? "environment" : "none",
    environment: { sessionReviews: names("summary"), notebook: names("notebook") },
    features: {
      sessionReviews: modelChain(config, row, "summary").length > 0,
      notebook: modelChain(config, row, "notebook").length > 0
    },
    updatedAt: row?.updatedAt.toISOString() ?? null
  };
}
export {
  presentAiSettings,
  presentAssessment,
  presentSummary
};
