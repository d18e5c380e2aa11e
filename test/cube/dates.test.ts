/** The calendar check of absolute dates (src/cube/dates.ts) against moment's strict parse it replaced. */
import { expect } from 'chai';
import moment from 'moment-timezone';
import { realDay, validAbsolute } from '../../src/cube/dates.js';

describe('cube dates', () => {
  it('realDay accepts exactly the days moment\'s strict YYYY-MM-DD accepts: every month 00–13 and day 00–32 of leap, common and century years', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    let accepted = 0;
    for (const year of [0, 1, 4, 100, 400, 1600, 1900, 1999, 2000, 2023, 2024, 2025, 2100, 2400, 9999]) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          const expected = moment.utc(date, 'YYYY-MM-DD', true).isValid();
          expect(realDay(date), date).to.equal(expected);
          if (expected) accepted += 1;
        }
      }
    }
    // 15 years, 7 of them leap (0, 4, 400, 1600, 2000, 2024, 2400): the count says both sides saw real days.
    expect(accepted).to.equal(15 * 365 + 7);
  });

  it('validAbsolute: dates and timestamps, with the day checked', () => {
    expect(['2024-02-29', '2024-02-29T10:00', '2024-02-29T10:00:00.123Z', '2024-02-29 10:00:00+02:00'].map(validAbsolute)).to.deep.equal([true, true, true, true]);
    expect(['2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-04-31T10:00', '2024-4-1', 'yesterday'].map(validAbsolute)).to.deep.equal([false, false, false, false, false, false, false]);
  });
});
