/** The AI attribution levels of a PR (`pull_requests.ai_attribution`, also on `change_lead_times`), highest first (docs/ai-attribution.md). */
export const LEVELS = ['high', 'medium', 'low', 'none'] as const;
export type Level = (typeof LEVELS)[number];
