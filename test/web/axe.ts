/**
 * axe-core as the browser tests use it: they fail on serious and critical violations only, so the
 * rules axe itself declares minor or moderate are not run. axe gives every violation of a rule that
 * declares an impact that impact (its _finalizeRuleResult), so those rules can never report a
 * serious or critical one: the verdict is the same, at about half the time per page (the
 * best-practice rules such as `region` and the landmark rules walk the whole page).
 */
import AxeBuilder from '@axe-core/playwright';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeCore = createRequire(import.meta.url)('axe-core') as { _audit: { rules: { id: string; impact?: string }[] } };
export const NEVER_SERIOUS = axeCore._audit.rules.filter((r) => r.impact === 'minor' || r.impact === 'moderate').map((r) => r.id);

/** An AxeBuilder for the page that runs every rule able to report a serious or critical violation. */
export const seriousAxe = (page: Page): AxeBuilder => new AxeBuilder({ page }).disableRules(NEVER_SERIOUS);
