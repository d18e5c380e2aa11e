/**
 * A synthetic sample in the code host's shapes, from a fixed seed: what tools/benchmarks/snapshot.ts
 * records through the fake GraphQL server when no CODEHOST_PUBLIC_TOKEN is at hand. The
 * repositories, people and numbers are made up (docs/benchmarks.md "The shipped snapshot"): the
 * organisations are `example-oss-NN`, the authors `contributor-NNN`; no real person is in it.
 */
import type { FakePull, FakeRelease, FakeRepository } from '../../test/helpers/fakeCodeHostGraphql.js';

/** mulberry32: a small deterministic PRNG, so the recording is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** The window's 12 months (YYYY-MM) before `asOf`'s month. */
function months(asOf: string): string[] {
  const last = Number(asOf.slice(0, 4)) * 12 + Number(asOf.slice(5, 7)) - 2;
  return Array.from({ length: 12 }, (_, i) => {
    const m = last - 11 + i;
    return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

export function synthesize(asOf: string, count = 12, seed = 26): FakeRepository[] {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const window = months(asOf);
  const repos: FakeRepository[] = [];
  for (let r = 1; r <= count; r++) {
    const nameWithOwner = `example-oss-${String(r).padStart(2, '0')}/project-${String(r).padStart(2, '0')}`;
    const team = int(3, 18);
    const pace = int(3, 30);
    const releaseRate = random() * 5;
    const hoursScale = 4 + random() * 120;
    const pulls: FakePull[] = [];
    const releases: FakeRelease[] = [];
    // Two repositories fail a criterion, as real candidates do: one archived, one too quiet.
    const quiet = r === count;
    for (const month of window) {
      const start = Date.parse(`${month}-01T00:00:00Z`);
      const days = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
      const n = quiet ? int(0, 1) : Math.max(0, pace + int(-Math.ceil(pace / 2), Math.ceil(pace / 2)));
      for (let i = 0; i < n; i++) {
        const mergedAt = start + random() * (days * 86_400_000 - 1000);
        const hours = hoursScale * (0.1 + random() * random() * 6);
        const bot = random() < 0.12;
        const revert = !bot && random() < 0.03;
        const hotfix = !bot && !revert && random() < 0.025;
        pulls.push({
          createdAt: iso(mergedAt - hours * 3_600_000),
          mergedAt: iso(mergedAt),
          title: revert ? `Revert "change ${r}-${i}"` : `Change ${r}-${month}-${i}`,
          author: bot ? { __typename: 'Bot', login: 'dependabot' } : { __typename: 'User', login: `contributor-${String(r * 100 + int(1, team)).padStart(3, '0')}` },
          labels: hotfix ? ['hotfix'] : random() < 0.3 ? ['enhancement'] : [],
        });
      }
      const shipped = Math.floor(releaseRate + random());
      for (let i = 0; i < shipped; i++) {
        const at = start + random() * (days * 86_400_000 - 1000);
        const kind = random();
        releases.push({ createdAt: iso(at - 3_600_000), publishedAt: kind < 0.05 ? null : iso(at), isDraft: kind < 0.05, isPrerelease: kind >= 0.05 && kind < 0.15 });
      }
    }
    repos.push({
      nameWithOwner,
      facts: { isPrivate: false, isArchived: r === count - 1, isFork: false, isMirror: false, pushedAt: `${asOf}T08:00:00Z`, diskUsage: int(2_000, 400_000), owner: { __typename: 'Organization' } },
      releases,
      pulls,
    });
  }
  return repos;
}
