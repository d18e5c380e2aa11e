/**
 * axe-core as the browser tests use it: they fail on serious and critical violations only, so the
 * rules axe itself declares minor or moderate are not run. axe gives every violation of a rule that
 * declares an impact that impact (its _finalizeRuleResult), so those rules can never report a
 * serious or critical one: the verdict is the same, at about half the time per page (the
 * best-practice rules such as `region` and the landmark rules walk the whole page).
 *
 * axe runs as `axe.run()` in the page (AxeBuilder's legacy mode), its source evaluated once per
 * document. AxeBuilder's default sends axe's 1.4 MB source through the protocol and evaluates it
 * in the page, then opens a blank tab, sends and evaluates it there again and finishes the run in
 * that tab (axe.runPartial/finishRun, which exist for cross-origin frames); the web app has no
 * frames, so both ways find the same violations. Measured on five pages (test/web, 2026-11-27):
 * per analysis 460 ms of Chromium's CPU instead of 550, and about 300 ms less in the test process.
 * The tests read violations only, so only they are reported in full (`resultTypes`: passes and
 * the rest name one element each): 40 KB of results per page instead of 250 KB, about 0.1 s less
 * of CPU on each side per analysis.
 */
import AxeBuilder from '@axe-core/playwright';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const axeCore = createRequire(import.meta.url)('axe-core') as { source: string; _audit: { rules: { id: string; impact?: string }[] } };
export const NEVER_SERIOUS = axeCore._audit.rules.filter((r) => r.impact === 'minor' || r.impact === 'moderate').map((r) => r.id);

/** AxeBuilder that evaluates axe's source only in a document that has no axe yet. */
class AxeOnce extends AxeBuilder {
  constructor(private readonly target: Page) {
    // AxeBuilder evaluates its "source" before each step: here a no-op, the real one is below.
    super({ page: target, axeSource: ';' });
  }

  override async analyze(): Promise<AxeResults> {
    if (!(await this.target.evaluate('typeof window.axe === "object"'))) await this.target.evaluate(axeCore.source);
    return super.analyze();
  }
}

/** An AxeBuilder for the page that runs every rule able to report a serious or critical violation. */
export const seriousAxe = (page: Page): AxeBuilder => new AxeOnce(page).setLegacyMode(true).options({ resultTypes: ['violations'] }).disableRules(NEVER_SERIOUS);
