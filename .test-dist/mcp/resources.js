import { readFile } from "node:fs/promises";
import { SCHEMA_DIR } from "../cube/compiler.js";
import { DORA_MEASURES, DORA_SOURCE, THRESHOLD_RULES, THRESHOLDS } from "../shared/doraBands.js";
import { serverInstructions } from "./instructions.js";
const METRICS_URI = "analytics://definitions/metrics";
const DORA_URI = "analytics://benchmarks/dora-2023";
const modelUri = (cube) => `analytics://models/${cube}`;
function metricsDocument(catalogue) {
  const lines = ["# Measures", "", "Every measure of the semantic layer, read from its data model (schema/<cube>.yml).", ""];
  const rules = serverInstructions(/* @__PURE__ */ new Date(0)).split("\n\n").slice(2, 6);
  lines.push("## How to read them", "", ...rules.map((r) => `- ${r}`), "");
  for (const cube of [...new Set(catalogue.measures.map((m) => m.cube))]) {
    lines.push(`## ${cube}`, "");
    for (const m of catalogue.measures.filter((x) => x.cube === cube)) {
      const extra = [`unit: ${m.unit}`, ...m.n ? [`n: ${m.n}`] : [], ...m.timeDimension ? [`month of: ${m.timeDimension}`] : []];
      lines.push(`- **${m.name}** (${m.title}; ${extra.join("; ")}): ${m.description}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
function doraDocument() {
  return { source: DORA_SOURCE, thresholds: THRESHOLDS, rules: THRESHOLD_RULES, measures: DORA_MEASURES, bands: "A value is placed in the best band whose threshold it meets; otherwise low." };
}
function registerResources(server, catalogue) {
  server.registerResource(
    "metric-definitions",
    METRICS_URI,
    { title: "Measure definitions", description: "Every measure with its definition, unit, n and the time dimension that decides its month; how months, medians and n work.", mimeType: "text/markdown" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: metricsDocument(catalogue) }] })
  );
  server.registerResource(
    "dora-2023-bands",
    DORA_URI,
    { title: "DORA 2023 performance bands", description: `Thresholds of the elite, high, medium and low bands used by team_benchmark and the web app. Source: ${DORA_SOURCE}.`, mimeType: "application/json" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(doraDocument(), null, 2) }] })
  );
  const cubes = [.../* @__PURE__ */ new Set([...catalogue.measures.map((m) => m.cube), ...catalogue.dimensions.map((d) => d.cube)])].sort();
  for (const cube of cubes) {
    server.registerResource(
      `model-${cube}`,
      modelUri(cube),
      { title: `Data model: ${cube}`, description: `The Cube data model of ${cube} (YAML): its measures, dimensions, joins and their descriptions.`, mimeType: "application/yaml" },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/yaml", text: await readFile(`${SCHEMA_DIR}/${cube}.yml`, "utf8") }] })
    );
  }
}
export {
  DORA_URI,
  METRICS_URI,
  doraDocument,
  metricsDocument,
  modelUri,
  registerResources
};
