/** The Teams page's comparison words and the teams' median (web/src/lib/compare.ts), worked by hand. */
import { expect } from 'chai';
import { changeWords, teamsMedian } from '../../web/src/lib/compare.js';

describe('web app: the Teams comparison (compare.ts)', () => {
  it("takes the teams' median of the teams that have a value", () => {
    expect(teamsMedian([3, null, 1, 1])).to.equal(1);
    expect(teamsMedian([7200, 3600, null])).to.equal(5400);
    expect(teamsMedian([0.2])).to.equal(0.2);
    expect(teamsMedian([null, null])).to.equal(null);
    expect(teamsMedian([])).to.equal(null);
  });

  it('names the change by the direction, in words', () => {
    expect(changeWords(4, 1, 'higher')).to.equal('up, better');
    expect(changeWords(0.2, 0, 'lower')).to.equal('up, worse');
    expect(changeWords(3600, 7200, 'lower')).to.equal('down, better');
    expect(changeWords(1, 4, 'higher')).to.equal('down, worse');
    expect(changeWords(5, 3, null)).to.equal('up');
    expect(changeWords(3, 3, 'lower')).to.equal('no change');
    expect(changeWords(3, null, 'lower')).to.equal(null);
    expect(changeWords(null, 3, 'higher')).to.equal(null);
  });

  it('says "no change" when the two values read the same as shown (issue 46 point 5)', () => {
    const hours = (v: number) => `${(v / 3600).toFixed(1)} h`;
    expect(changeWords(65_530, 65_510, 'lower', hours)).to.equal('no change');
    expect(changeWords(65_530, 65_510, 'lower')).to.equal('up, worse');
    expect(changeWords(65_900, 65_510, 'lower', hours)).to.equal('up, worse');
  });
});
