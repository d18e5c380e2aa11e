/** What Settings › AI sends about attribution, and the window of the per-signal counts (docs/ai-attribution.md). */
import { z } from 'zod';
import { checkFactsWindow, FactsWindow } from '../facts/window.js';

/** A label as the code host spells one: up to 50 characters, no control characters. */
const Label = z
  .string()
  .trim()
  .min(1, 'Must not be empty')
  .max(50, 'A code-host label has at most 50 characters')
  .refine((s) => [...s].every((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f), 'Must not contain control characters');

/** The labels that mark a PR as AI-assisted besides `ai-assisted`; the whole list is replaced. */
export const AttributionSettingsBody = z.strictObject({
  labels: z.array(Label).max(20, 'At most 20 labels'),
});
export type AttributionSettingsBody = z.infer<typeof AttributionSettingsBody>;

/** A window of months or days, at most 36 months, as the drill-through's. */
export const SignalsQuery = FactsWindow.superRefine(checkFactsWindow);
export type SignalsQuery = z.infer<typeof SignalsQuery>;
