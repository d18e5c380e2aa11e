-- A shipped corpus snapshot re-measured at the same read date keeps its generatedAt: the rows'
-- checksum tells the revision apart, so a database that loaded the earlier rows loads the new ones
-- (src/benchmarks/store.ts loadShippedSnapshot, docs/benchmarks-corpus.md).
ALTER TABLE "benchmark_corpus_source" ADD COLUMN "snapshot_checksum" text;
