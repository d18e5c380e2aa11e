/** Duration axes and columns in one unit (issue 46 point 5): web/src/lib/format.ts, worked by hand. */
import { expect } from 'chai';
import { DURATION_TICKS, formatDurationTicks, secondsUnit, secondsValueIn } from '../../web/src/lib/format.js';

describe('web app: durations in one unit, at round values (format.ts)', () => {
  it('labels a duration axis in the unit of its largest tick, at round steps', () => {
    expect(formatDurationTicks([0, 6 * 3600, 12 * 3600, 18 * 3600])).to.deep.equal(['0 h', '6 h', '12 h', '18 h']);
    expect(formatDurationTicks([0, 43_200, 86_400, 129_600, 172_800])).to.deep.equal(['0 d', '0.5 d', '1 d', '1.5 d', '2 d']);
    expect(formatDurationTicks([0, 900, 1800, 2700])).to.deep.equal(['0 min', '15 min', '30 min', '45 min']);
    // Every step uPlot may pick is a whole number of minutes, hours or days.
    expect(DURATION_TICKS.every((s) => s % 60 === 0 && (s < 3600 || s % 3600 === 0) && (s < 86_400 || s % 86_400 === 0))).to.equal(true);
  });

  it('shows a column of durations in the unit of its largest value', () => {
    const column = [1800, 21_600, null, 90_000];
    expect(secondsUnit(column)).to.equal('h');
    expect(column.map((v) => (v === null ? null : secondsValueIn(v, secondsUnit(column))))).to.deep.equal(['0.5', '6.0', null, '25.0']);
    expect(secondsUnit([200_000])).to.equal('d');
  });
});
