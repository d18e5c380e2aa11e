import { readFileSync } from "node:fs";
import { transactionOn } from "../db/transaction.js";
const CORPUS_LOCK = 4127301611;
const SNAPSHOT_FILE = new URL("../../corpus/snapshot.json", import.meta.url);
function readSnapshot(file = SNAPSHOT_FILE) {
  return JSON.parse(readFileSync(file, "utf8"));
}
async function replaceCorpus(tx, rows, source) {
  await tx.query("delete from benchmark_corpus");
  await tx.query("insert into benchmark_corpus select * from json_populate_recordset(null::benchmark_corpus, $1::json)", [JSON.stringify(rows)]);
  const repositories = new Set(rows.map((r) => r.repository_key)).size;
  await tx.query(
    `insert into benchmark_corpus_source (id, kind, generated_at, window_from, window_to, repositories) values (1, $1, $2, $3, $4, $5)
     on conflict (id) do update set kind = excluded.kind, generated_at = excluded.generated_at, window_from = excluded.window_from,
       window_to = excluded.window_to, repositories = excluded.repositories`,
    [source.kind, source.generatedAt, source.windowFrom, source.windowTo, repositories]
  );
  return repositories;
}
async function loadShippedSnapshot(client, snapshot = readSnapshot()) {
  return transactionOn(client, async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [CORPUS_LOCK]);
    const { rows } = await tx.query("select kind, generated_at from benchmark_corpus_source where id = 1");
    const current = rows[0];
    const kind = snapshot.synthetic === false ? "live" : "snapshot";
    if (current) {
      const notNewer = current.generated_at.getTime() >= Date.parse(snapshot.generatedAt);
      if (current.kind === kind && notNewer) return "current";
      if (current.kind === "live" && (kind === "snapshot" || notNewer)) return "live";
    }
    await replaceCorpus(tx, snapshot.rows, { kind, generatedAt: new Date(snapshot.generatedAt), windowFrom: snapshot.windowFrom, windowTo: snapshot.windowTo });
    return "loaded";
  });
}
export {
  CORPUS_LOCK,
  SNAPSHOT_FILE,
  loadShippedSnapshot,
  readSnapshot,
  replaceCorpus
};
