import { memberFormat } from "../cube/compiler.js";
const UNITS = ["count", "people", "seconds", "ratio", "score", "lines", "effort_units"];
const isPublic = (m) => m.public !== false && m.isVisible !== false;
const metaOf = (m) => m.meta ?? {};
const shortTitle = (m) => String(m.shortTitle ?? m.title ?? m.name);
const built = /* @__PURE__ */ new WeakMap();
function catalogueOf(cube) {
  const known = built.get(cube);
  if (known) return known;
  const measures = [];
  const dimensions = [];
  for (const c of cube.meta) {
    for (const m of c.measures.filter(isPublic)) {
      const meta = metaOf(m);
      measures.push({
        name: m.name,
        cube: c.name,
        title: shortTitle(m),
        description: m.description ?? "",
        unit: UNITS.includes(meta.unit ?? "") ? meta.unit : "count",
        ...meta.n ? { n: meta.n } : {},
        ...meta.time_dimension ? { timeDimension: meta.time_dimension } : {}
      });
    }
    for (const d of c.dimensions.filter(isPublic)) {
      const meta = metaOf(d);
      dimensions.push({
        name: d.name,
        cube: c.name,
        title: shortTitle(d),
        description: d.description ?? "",
        type: d.type,
        ...memberFormat(d) === "id" ? { format: "id" } : {},
        ...Array.isArray(meta.values) ? { values: meta.values.map(String) } : {}
      });
    }
  }
  const evaluator = cube.compiler.cubeEvaluator;
  const reachable = (start) => {
    const seen = [start];
    for (let i = 0; i < seen.length; i += 1) {
      for (const join of evaluator.cubeFromPath(seen[i]).joins ?? []) if (!seen.includes(join.name)) seen.push(join.name);
    }
    return seen;
  };
  const byCube = /* @__PURE__ */ new Map();
  const measureByName = new Map(measures.map((m) => [m.name, m]));
  const dimensionByName = new Map(dimensions.map((d) => [d.name, d]));
  const catalogue = {
    measures,
    dimensions,
    dimensionsFor(name) {
      const measure = measureByName.get(name);
      if (!measure) return [];
      let cubes = byCube.get(measure.cube);
      if (!cubes) byCube.set(measure.cube, cubes = reachable(measure.cube));
      return cubes.flatMap((c) => dimensions.filter((d) => d.cube === c));
    },
    measure: (name) => measureByName.get(name),
    dimension: (name) => dimensionByName.get(name)
  };
  built.set(cube, catalogue);
  return catalogue;
}
export {
  UNITS,
  catalogueOf
};
