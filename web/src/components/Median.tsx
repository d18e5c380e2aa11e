import { formatSeconds } from '../lib/format';

/** A median never travels without its count: "18.2 h · n = 41". */
export function Median({ seconds, n }: { seconds: number | null; n: number | null }) {
  return (
    <span className="median">
      {seconds === null ? '—' : formatSeconds(seconds)}
      <span className="n"> · n = {n ?? 0}</span>
    </span>
  );
}
