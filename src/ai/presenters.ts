import type { Config } from '../config/index.js';
import { environmentChain, modelChain, type AiSettingsRow } from './settings.js';

/** Settings › AI: the organisation's choice (never its key), what the environment offers, and which features are on. */
export function presentAiSettings(config: Config, row: AiSettingsRow | null) {
  const organisation = Boolean(row?.provider && row.apiKeySealed && row.models.length > 0);
  const names = (feature: 'summary' | 'notebook') => environmentChain(config, feature).map((c) => `${c.provider}:${c.model}`);
  return {
    provider: row?.provider ?? null,
    models: row?.models ?? [],
    apiKeySet: Boolean(row?.apiKeySealed),
    monthlyTokenBudget: row?.monthlyTokenBudget ?? null,
    source: organisation ? 'organisation' : names('summary').length + names('notebook').length > 0 ? 'environment' : 'none',
    environment: { sessionReviews: names('summary'), notebook: names('notebook') },
    features: {
      sessionReviews: modelChain(config, row, 'summary').length > 0,
      notebook: modelChain(config, row, 'notebook').length > 0,
    },
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}
