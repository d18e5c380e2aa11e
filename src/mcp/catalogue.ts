/**
 * What an assistant can ask for, read from the compiled models (schema/*.yml): every public
 * measure with its unit, its n and the time dimension that decides its month (the models' `meta`),
 * every public dimension with its description and, where the model lists them, its values; and which
 * dimensions can group a measure (its own cube's and those of the cubes it joins). Built once per
 * compiled model set.
 */
import type { CompiledCube, MetaMember } from '../cube/compiler.js';
import { memberFormat } from '../cube/compiler.js';

export const UNITS = ['count', 'people', 'seconds', 'ratio', 'score', 'lines', 'effort_units'] as const;
export type Unit = (typeof UNITS)[number];

export interface MeasureInfo {
  name: string;
  cube: string;
  title: string;
  description: string;
  unit: Unit;
  /** The count beside a median or ratio: how many facts it rests on. */
  n?: string;
  /** The time dimension whose month a fact counts in. */
  timeDimension?: string;
}

export interface DimensionInfo {
  name: string;
  cube: string;
  title: string;
  description: string;
  type: 'string' | 'number' | 'boolean' | 'time';
  /** `id`: the dimension holds UUIDs (filter with equals, notEquals, set or notSet). */
  format?: 'id';
  /** Every value the model allows, when it lists them. */
  values?: string[];
}

export interface Catalogue {
  measures: MeasureInfo[];
  dimensions: DimensionInfo[];
  /** The measure's own cube's dimensions first, then those of the cubes it joins (transitively). */
  dimensionsFor(measure: string): DimensionInfo[];
  measure(name: string): MeasureInfo | undefined;
  dimension(name: string): DimensionInfo | undefined;
}

interface MemberMeta {
  unit?: string;
  n?: string;
  time_dimension?: string;
  values?: unknown[];
}

const isPublic = (m: MetaMember) => m.public !== false && m.isVisible !== false;
const metaOf = (m: MetaMember) => (m.meta ?? {}) as MemberMeta;
const shortTitle = (m: MetaMember) => String(m.shortTitle ?? m.title ?? m.name);

const built = new WeakMap<CompiledCube, Catalogue>();

export function catalogueOf(cube: CompiledCube): Catalogue {
  const known = built.get(cube);
  if (known) return known;
  const measures: MeasureInfo[] = [];
  const dimensions: DimensionInfo[] = [];
  for (const c of cube.meta) {
    for (const m of c.measures.filter(isPublic)) {
      const meta = metaOf(m);
      measures.push({
        name: m.name,
        cube: c.name,
        title: shortTitle(m),
        description: m.description ?? '',
        unit: (UNITS as readonly string[]).includes(meta.unit ?? '') ? (meta.unit as Unit) : 'count',
        ...(meta.n ? { n: meta.n } : {}),
        ...(meta.time_dimension ? { timeDimension: meta.time_dimension } : {}),
      });
    }
    for (const d of c.dimensions.filter(isPublic)) {
      const meta = metaOf(d);
      dimensions.push({
        name: d.name,
        cube: c.name,
        title: shortTitle(d),
        description: d.description ?? '',
        type: d.type as DimensionInfo['type'],
        ...(memberFormat(d) === 'id' ? { format: 'id' as const } : {}),
        ...(Array.isArray(meta.values) ? { values: meta.values.map(String) } : {}),
      });
    }
  }
  const evaluator = cube.compiler.cubeEvaluator as unknown as { cubeFromPath(name: string): { joins?: { name: string }[] } };
  const reachable = (start: string): string[] => {
    const seen = [start];
    for (let i = 0; i < seen.length; i += 1) {
      for (const join of evaluator.cubeFromPath(seen[i] as string).joins ?? []) if (!seen.includes(join.name)) seen.push(join.name);
    }
    return seen;
  };
  const byCube = new Map<string, string[]>();
  const measureByName = new Map(measures.map((m) => [m.name, m]));
  const dimensionByName = new Map(dimensions.map((d) => [d.name, d]));
  const catalogue: Catalogue = {
    measures,
    dimensions,
    dimensionsFor(name) {
      const measure = measureByName.get(name);
      if (!measure) return [];
      let cubes = byCube.get(measure.cube);
      if (!cubes) byCube.set(measure.cube, (cubes = reachable(measure.cube)));
      return cubes.flatMap((c) => dimensions.filter((d) => d.cube === c));
    },
    measure: (name) => measureByName.get(name),
    dimension: (name) => dimensionByName.get(name),
  };
  built.set(cube, catalogue);
  return catalogue;
}
