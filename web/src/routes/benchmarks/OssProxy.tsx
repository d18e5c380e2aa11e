import { useQuery } from '@tanstack/react-query';
import { cubeQuery, referenceCubeQuery } from '../../api/cube';
import { OSS_MEASURES, ossCorpus, ossTeamMonth } from '../../api/queries/benchmarks';
import { ErrorNote } from '../../components/states';
import { doraTier, isDoraMeasure } from '../../../../src/shared/doraBands';
import { corpusLabelOf, corpusSize, corpusSourceOf, distributionOf, EXAMPLE_CORPUS_LABEL, EXAMPLE_CORPUS_NOTE, OSS_LABEL, ossPercentile, percentileText, teamValue, type OssMeasure } from '../../../../src/shared/ossPercentile';
import { formatCount, formatMonth, formatRatio, formatSeconds } from '../../lib/format';
import type { Scope } from '../../lib/scope';
import { dayCount } from '../../lib/window';

const perAuthor = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const format = (m: OssMeasure, v: number) => (m.unit === 'seconds' ? formatSeconds(v) : m.key === 'prs_per_author' ? perAuthor.format(v) : m.unit === 'ratio' ? formatRatio(v) : formatCount(v));

/**
 * The window's last month beside the open-source corpus (docs/benchmarks.md): the scope's value of
 * each measure, its percentile among the corpus's repository months and, for the DORA measures,
 * the band. Both numbers come from cube queries; src/shared/ossPercentile.ts only ranks them.
 * The note and the caption name the corpus: measured from the public history of N repositories,
 * read on a date (the corpus shipped with the server, or a deployment's own run). Were it a
 * synthetic example, the note and every percentile would say so: its figures are illustrative.
 */
export function OssProxy({ scope, hasDeploymentSource }: { scope: Scope; hasDeploymentSource: boolean | undefined }) {
  const team = useQuery(cubeQuery(ossTeamMonth(scope)));
  const corpus = useQuery(referenceCubeQuery(ossCorpus));
  const queries = [team, corpus];
  const failed = queries.find((q) => q.isError);
  const loading = queries.some((q) => !q.data);
  const example = corpusSourceOf(corpus.data?.data[0]) === 'shipped_example';
  const corpusLabel = corpusLabelOf(corpus.data?.data[0]);
  const row = team.data?.data[0];
  const days = dayCount({ from: scope.to, to: scope.to });
  return (
    <section aria-labelledby="oss-proxy-title" data-testid="oss-proxy">
      <h2 className="section" id="oss-proxy-title" data-testid="oss-proxy-title">Open-source benchmark ({OSS_LABEL})</h2>
      {example && <p className="notice" data-testid="oss-proxy-example">{EXAMPLE_CORPUS_NOTE}</p>}
      <p className="muted" data-testid="oss-proxy-note">
        {formatMonth(scope.to)}: {scope.team ? 'this team' : 'the whole organisation'} ranked among the repository months of {example ? `the ${EXAMPLE_CORPUS_LABEL}` : corpusLabel ? `the open-source corpus ${corpusLabel}` : 'sampled open-source repositories'}.
        Releases stand for production deployments (lead time runs from a commit to the first release tag holding it) and a release followed within 7 days by a patch release or a revert for a failed deployment: a proxy, not a like-for-like comparison (public history holds no deployment and no incident).
      </p>
      {failed && <ErrorNote error={failed.error} onRetry={() => { for (const q of queries) void q.refetch(); }} />}
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Percentile among open-source repositories ({OSS_LABEL}{corpusLabel ? `, ${corpusLabel}` : ''}) for {formatMonth(scope.to)}</caption>
          <thead>
            <tr>
              <th scope="col">Measure</th>
              <th scope="col">{formatMonth(scope.to)}</th>
              <th scope="col">Open-source percentile</th>
              <th scope="col">DORA 2023</th>
            </tr>
          </thead>
          <tbody>
            {OSS_MEASURES.map((m) => {
              const noSource = m.dora !== null && hasDeploymentSource === false;
              const value = noSource ? null : teamValue(m, row);
              const distribution = distributionOf(corpus.data?.data ?? [], m.corpus);
              const percentile = ossPercentile(value, distribution, m.lowerIsBetter);
              const tier = m.dora && isDoraMeasure(m.dora) ? doraTier(m.dora, value, days) : null;
              return (
                <tr key={m.key} data-testid={`oss-${m.key}`}>
                  <th scope="row">{m.title}</th>
                  <td data-testid={`oss-${m.key}-value`}>{loading ? '…' : noSource ? 'no deployment source' : value === null ? 'no value' : format(m, value)}</td>
                  <td data-testid={`oss-${m.key}-percentile`}>
                    {loading ? '…' : percentile === null ? (value !== null && corpusSize(distribution) === 0 ? 'no percentile: no repository month of this corpus has a value' : 'no percentile') : `${percentileText(percentile)} of ${corpusSize(distribution)} repository months · ${OSS_LABEL}${example ? ` · ${EXAMPLE_CORPUS_LABEL}` : ''}`}
                  </td>
                  <td data-testid={`oss-${m.key}-tier`}>{loading || !tier ? '—' : tier}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
