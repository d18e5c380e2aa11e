import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { prepareCompiler } from "@cubejs-backend/schema-compiler";
const SCHEMA_DIR = fileURLToPath(new URL("../../schema", import.meta.url));
function refuse() {
  throw new Error("Jinja and Python data models are not supported");
}
const nativeInstance = {
  newJinjaEngine: () => ({ loadTemplate: refuse, renderTemplate: refuse }),
  loadPythonContext: refuse
};
function schemaFiles(dir) {
  return readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort().map((fileName) => ({ fileName, content: readFileSync(`${dir}/${fileName}`, "utf8") }));
}
function memberFormat(member) {
  if (member.meta?.uuid === true) return "id";
  return formatName(member.format);
}
function formatName(format) {
  if (typeof format === "string") return format;
  const alias = format?.alias;
  return typeof alias === "string" ? alias : void 0;
}
async function compileCube(dir = SCHEMA_DIR) {
  const files = schemaFiles(dir);
  const repo = { localPath: () => dir, dataSchemaFiles: async () => files };
  const compiler = prepareCompiler(repo, { nativeInstance, standalone: true });
  await compiler.compiler.compile();
  const meta = compiler.metaTransformer.cubes.map((c) => c.config).filter((c) => c.type !== "view");
  const members = /* @__PURE__ */ Object.create(null);
  for (const cube of meta) {
    for (const m of cube.measures) {
      const window = m.meta?.window === true;
      members[m.name] = { kind: "measure", cube: cube.name, type: m.type, ...window ? { window: true } : {} };
    }
    for (const d of cube.dimensions) {
      const format = memberFormat(d);
      members[d.name] = { kind: "dimension", cube: cube.name, type: d.type, ...format ? { format } : {} };
    }
    for (const s of cube.segments) members[s.name] = { kind: "segment", cube: cube.name, type: "segment" };
  }
  return Object.freeze({ compiler, meta, members });
}
let compiled = null;
function loadCube() {
  if (!compiled) {
    compiled = compileCube();
    compiled.catch(() => {
      compiled = null;
    });
  }
  return compiled;
}
export {
  SCHEMA_DIR,
  compileCube,
  formatName,
  loadCube,
  memberFormat
};
