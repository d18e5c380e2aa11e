import type { ReactNode } from 'react';
import type { Tier } from '../../../src/shared/doraBands';
import type { Reason } from '../lib/emptyReasons';
import { DrillLink } from './Drill';
import { Empty } from './states';

/**
 * One measure for the window: its value, the previous window's value (the direction is a
 * comparison of the two numbers the server sent, no arithmetic), and its DORA band in words.
 */
export function Tile({ id, title, value, current, previous, previousText, tier, empty, note, lowerIsBetter = false, facts }: {
  id: string;
  title: string;
  value: ReactNode;
  current: number | null;
  previous: number | null;
  previousText: string;
  tier?: Tier | null;
  empty?: Reason | null;
  /** Lines under the value: what the number covers ("since …", "includes … no team owns"). */
  note?: ReactNode;
  lowerIsBetter?: boolean;
  /** The measure whose facts the tile opens (a drill-through link under the value). */
  facts?: string;
}) {
  let trend = '';
  if (current !== null && previous !== null) {
    const up = current > previous;
    const same = current === previous;
    trend = same ? 'no change' : up ? 'up' : 'down';
    if (!same) trend += (up !== lowerIsBetter ? ' (better)' : ' (worse)');
  }
  return (
    <section className="tile" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {empty ? (
        <Empty reason={empty} />
      ) : (
        <>
          <p className="value" data-testid={`${id}-value`}>
            {value}
          </p>
          {tier && (
            <p className={`tier tier-${tier}`} data-testid={`${id}-tier`}>
              DORA 2023: {tier}
            </p>
          )}
          {note}
        </>
      )}
      {facts && !empty && <DrillLink measure={facts} title={title} testId={`${id}-facts`} />}
      <p className="previous muted" data-testid={`${id}-previous`}>
        Previous window: {previousText}
        {trend && <span className="trend-word"> · {trend}</span>}
      </p>
    </section>
  );
}
