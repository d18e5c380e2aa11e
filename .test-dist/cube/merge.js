function totalOrder(q) {
  const times = q.timeDimensions.filter((t) => t.granularity).map((t) => t.dimension);
  const [time] = times;
  const [measure] = q.measures;
  const [dimension] = q.dimensions;
  const base = q.order.length > 0 ? q.order : time ? [{ id: time, desc: false }] : measure && dimension ? [{ id: measure, desc: true }] : dimension ? [{ id: dimension, desc: false }] : [];
  const named = new Set(base.map((o) => o.id));
  return [...base, ...[.../* @__PURE__ */ new Set([...q.dimensions, ...times])].filter((id) => !named.has(id)).map((id) => ({ id, desc: false }))];
}
const timeKeysOf = (q) => q.timeDimensions.filter((t) => t.granularity).flatMap((t) => [`${t.dimension}.${t.granularity}`, t.dimension]);
function mergeRows(q, results) {
  const grain = q.timeDimensions.find((t) => t.granularity)?.granularity;
  const timeKeys = timeKeysOf(q);
  const merged = /* @__PURE__ */ new Map();
  results.forEach((rows) => {
    for (const row of rows) {
      const bucket = timeKeys.map((k) => row[k]).find((v) => v !== void 0) ?? null;
      const key = JSON.stringify([...q.dimensions.map((d) => row[d] ?? null), grain ? bucket : null]);
      let target = merged.get(key);
      if (!target) {
        target = {};
        for (const d of q.dimensions) target[d] = row[d] ?? null;
        for (const k of timeKeys) target[k] = bucket;
        for (const m of q.measures) target[m] = null;
        merged.set(key, target);
      }
      for (const m of q.measures) if (m in row) target[m] = row[m];
    }
  });
  return sortRows(q, [...merged.values()]);
}
function sortRows(q, rows) {
  const timeKeys = timeKeysOf(q);
  const order = totalOrder(q);
  return rows.sort((a, b) => {
    for (const { id, desc } of order) {
      const key = Object.hasOwn(a, id) ? id : timeKeys.find((k) => k.startsWith(`${id}.`)) ?? id;
      const x = a[key] ?? null;
      const y = b[key] ?? null;
      if (x === y) continue;
      const ascending = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc ? -ascending : ascending;
    }
    return 0;
  });
}
export {
  mergeRows,
  sortRows,
  totalOrder
};
