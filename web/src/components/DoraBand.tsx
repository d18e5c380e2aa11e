import type { ReactNode } from 'react';
import type { Tier } from '../../../src/shared/doraBands';

/** A DORA band in words, coloured by band ("DORA high"); nothing without a band. */
export function Band({ tier, testId, prefix = 'DORA' }: { tier: Tier | null; testId?: string; prefix?: ReactNode }) {
  if (!tier) return null;
  return (
    <span className={`tier tier-${tier}`} data-testid={testId}>
      {prefix ? <>{prefix} </> : null}
      {tier}
    </span>
  );
}
