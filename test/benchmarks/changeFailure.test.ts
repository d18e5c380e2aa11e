/**
 * The change failure proxy per release (docs/benchmarks-corpus.md "Change failure per release"), one
 * definition for the corpus job and the git-history path: a release fails when a patch release of
 * its series or a revert on the default branch follows it within 7 days; a month's value is the
 * share of its releases that failed.
 */
import { expect } from 'chai';
import { changeFailureByMonth, failedReleases, releaseVersion, type DatedRelease } from '../../src/benchmarks/measures.js';

const at = (iso: string) => Date.parse(iso);
const release = (iso: string, tag: string): DatedRelease => ({ at: at(iso), ...releaseVersion(tag) });

describe('benchmark corpus: change failure per release', () => {
  it('reads the series (package and major.minor) and patch of X.Y.Z tags; other tags have none', () => {
    expect(['v1.2.3', '1.2.3', 'svelte@5.1.0', 'axum-v0.8.4', 'v1.2.3-rc.1', 'nightly'].map(releaseVersion)).to.deep.equal([
      { series: '|1.2', patch: 3 }, { series: '|1.2', patch: 3 }, { series: 'svelte@|5.1', patch: 0 }, { series: 'axum-|0.8', patch: 4 },
      { series: null, patch: null }, { series: null, patch: null },
    ]);
  });

  it('a release fails by a patch release of its series, or a revert, later and within 7 × 24 h', () => {
    const releases = [
      release('2026-03-01T00:00:00Z', 'v2.0.0'), // v2.0.1 exactly 7 days later: failed
      release('2026-03-08T00:00:00Z', 'v2.0.1'), // v2.0.2 7 days and 1 s later: not
      release('2026-03-15T00:00:01Z', 'v2.0.2'), // v2.1.1 is another series; the revert is at its very instant, not after it
      release('2026-03-16T00:00:00Z', 'v2.1.1'),
      release('2026-03-20T00:00:00Z', 'other-2.0.3'), // another package's 2.0 series
      release('2026-03-25T00:00:00Z', 'nightly'), // no version: a revert still fails it
    ];
    const reverts = [at('2026-03-15T00:00:01Z'), at('2026-03-31T23:00:00Z')];
    expect(failedReleases(releases, reverts)).to.deep.equal([true, false, false, false, false, true]);
    // An earlier patch release (a backport) fails nothing: the patch must come after.
    expect(failedReleases([release('2026-03-02T00:00:00Z', 'v1.4.0'), release('2026-03-01T00:00:00Z', 'v1.4.1')], [])).to.deep.equal([false, false]);
  });

  it("a month's value is its failed releases ÷ its releases, by the release's month; a revert next month counts; no release, no value", () => {
    const releases = [release('2026-01-30T12:00:00Z', 'v1.0.0'), release('2026-02-10T00:00:00Z', 'v1.1.0'), release('2026-02-11T00:00:00Z', 'v1.2.0'), release('2026-02-20T00:00:00Z', 'v1.3.0')];
    const failure = changeFailureByMonth(releases, [at('2026-02-02T00:00:00Z'), at('2026-02-12T00:00:00Z')]);
    // January: v1.0.0, reverted on 2 Feb. February: v1.1.0 and v1.2.0 (the revert of the 12th), not v1.3.0.
    expect([...failure]).to.deep.equal([['2026-01-01', 1], ['2026-02-01', 2 / 3]]);
    expect(failure.has('2026-03-01')).to.equal(false);
  });
});
