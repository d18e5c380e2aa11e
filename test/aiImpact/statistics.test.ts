import { expect } from 'chai';
import { median, medianDifference, MIN_SAMPLE, quantileSorted, resampleMedians, sampledMedianDifference, seededRandom, shareDifference } from '../../src/aiImpact/statistics.js';

describe('AI against not: statistics', () => {
  it('interpolates quantiles as percentile_cont does', () => {
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(median([5])).to.equal(5);
    expect(quantileSorted([10, 20, 30, 40, 50], 0.9)).to.equal(46);
    expect(Number.isNaN(median([]))).to.equal(true);
  });

  it('says "not enough data" under 20 on either side, and gives a difference at 20', () => {
    const nineteen = Array.from({ length: MIN_SAMPLE - 1 }, (_, i) => i);
    const twenty = Array.from({ length: MIN_SAMPLE }, (_, i) => i);
    expect(medianDifference(nineteen, twenty)).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    expect(medianDifference(twenty, nineteen)).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    expect(shareDifference(5, 19, 5, 40)).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    expect(medianDifference(twenty, twenty).status).to.equal('ok');
  });

  it('gives the difference of medians and an interval around it that is the same on every call', () => {
    const ai = Array.from({ length: 40 }, (_, i) => 3600 * (10 + i)); // median 29.5 h
    const other = Array.from({ length: 30 }, (_, i) => 3600 * (2 + i)); // median 16.5 h
    const result = medianDifference(ai, other, 7);
    if (result.status !== 'ok') throw new Error('expected a difference');
    expect(result.difference).to.equal(3600 * 13);
    expect(result.interval.low).to.be.below(result.difference);
    expect(result.interval.high).to.be.above(result.difference);
    // The sides barely overlap at these medians: the interval stays on the positive side.
    expect(result.interval.low).to.be.above(0);
    expect(medianDifference(ai, other, 7)).to.deep.equal(result);
  });

  it('draws the same resamples ahead of the values as within: the intervals of a fixed data set, exactly', () => {
    const random = seededRandom(5);
    const a = Array.from({ length: 45 }, () => Math.round(random() * 10000));
    const b = Array.from({ length: 38 }, () => Math.round(random() * 10000));
    // Pinned from the code before the resamples could be drawn ahead (2026-11-30): the same draws, in the same order.
    const whole = { status: 'ok', difference: -251, interval: { low: -2197, high: 2854.25 } };
    const sampled = { status: 'ok', difference: 100, interval: { low: -1205.479166301824, high: 2427.4293713650886 } };
    expect(medianDifference(a, b, 3)).to.deep.equal(whole);
    expect(sampledMedianDifference(a, 450, b, 38, 100, 3)).to.deep.equal(sampled);
    // The service draws them while the database computes the values, then hands them in.
    const drawn = resampleMedians(a, b, 3);
    expect(medianDifference(a, b, 3, drawn)).to.deep.equal(whole);
    expect(sampledMedianDifference(a, 450, b, 38, 100, 3, drawn)).to.deep.equal(sampled);
    expect(resampleMedians(a.slice(0, MIN_SAMPLE - 1), b, 3)).to.equal(null);
  });

  it('an interval of two samples from one distribution holds 0', () => {
    const random = seededRandom(3);
    const a = Array.from({ length: 60 }, () => Math.round(random() * 1000));
    const b = Array.from({ length: 60 }, () => Math.round(random() * 1000));
    const result = medianDifference(a, b, 11);
    if (result.status !== 'ok') throw new Error('expected a difference');
    expect(result.interval.low).to.be.below(0);
    expect(result.interval.high).to.be.above(0);
  });

  it('gives a share difference with the normal interval', () => {
    const result = shareDifference(10, 40, 5, 50);
    if (result.status !== 'ok') throw new Error('expected a difference');
    expect(result.difference).to.be.closeTo(0.15, 1e-12);
    const spread = 1.6448536269514722 * Math.sqrt((0.25 * 0.75) / 40 + (0.1 * 0.9) / 50);
    expect(result.interval.low).to.be.closeTo(0.15 - spread, 1e-12);
    expect(result.interval.high).to.be.closeTo(0.15 + spread, 1e-12);
  });
});
