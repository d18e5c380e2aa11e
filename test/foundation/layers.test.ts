/**
 * The floors (docs/architecture.md): infrastructure imports only infrastructure, never a capability
 * or a composition root, statically, with `export … from`, type-only or through `import()`. The
 * import lister is the TypeScript compiler's parser (tools/imports.ts). No database: `npm run lint`
 * runs this file with mocha's config off (the config's global setup starts PostgreSQL).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  INFRASTRUCTURE_FILES,
  INFRASTRUCTURE_FOLDERS,
  listAllImports,
  LOADED_WHEN_USED,
  type ImportRecord,
  listImports,
  ROOT_FILES,
  SRC,
  unitGraph,
  violations,
} from '../../tools/imports.js';

/** Every import of src/, parsed once for the file: about a second, several on a busy machine. */
let parsed: ImportRecord[] | null = null;
function allImports(this: Mocha.Context): ImportRecord[] {
  this.timeout(120_000);
  return (parsed ??= listAllImports());
}

describe('layers: infrastructure imports no capability', () => {
  let records: ImportRecord[];
  before(function () {
    records = allImports.call(this);
  });

  it('no file of http/ db/ auth/ config/ jobs/ live/ shared/ storage/ mail/ or an infrastructure root file imports a capability', () => {
    const found = violations(records);
    expect(found.map((v) => v.message), `upward imports (file:line → target):\n${found.map((v) => v.message).join('\n')}`).to.deep.equal([]);
  });

  it('reads the real tree: every file, and the imports the composition roots are known to make', () => {
    const files = new Set(records.map((r) => r.file));
    for (const file of ['http/route.ts', 'app.ts', 'jobCatalog.ts', 'db/migrations.ts']) expect(files).to.include(file);
    const graph = unitGraph(records);
    expect([...graph.get('app.ts')!.keys()]).to.include.members(['identity', 'billing', 'http']);
    expect([...graph.get('http')!.keys()]).to.include.members(['auth', 'errors.ts', 'context.ts']);
    expect(records.filter((r) => r.kind === 'dynamic').length).to.be.greaterThan(10);
  });

  it('every folder and root file of src/ has a floor: a root file is infrastructure or an entry point, named in tools/imports.ts', () => {
    const entries = readdirSync(SRC);
    for (const folder of INFRASTRUCTURE_FOLDERS) expect(entries, folder).to.include(folder);
    const rootFiles = entries.filter((name) => name.endsWith('.ts') && !statSync(join(SRC, name)).isDirectory());
    expect(rootFiles.sort()).to.deep.equal([...INFRASTRUCTURE_FILES, ...ROOT_FILES].sort());
  });

  it('catches each kind of upward import in a synthetic infrastructure file, and nothing else', () => {
    const text = [
      "import { z } from 'zod';", // 1: a package
      "import { authenticate } from '../identity/authenticate.js';", // 2: static, upward
      "import { readBody } from './body.js';", // 3: same folder
      "import type { Db } from '../db/client.js';", // 4: infrastructure
      "import type { InvitationRow } from '../members/invitations.js';", // 5: type-only, upward
      "export { surveyLink } from '../surveys/service.js';", // 6: export … from, upward
      "import { AppError } from '../errors.js';", // 7: an infrastructure root file
      'export async function f(name: string) {',
      "  const { assertWritable } = await import('../billing/entitlements.js');", // 9: dynamic, upward
      "  const { jobCatalog } = await import('../jobCatalog.js');", // 10: a composition root
      '  const anything = await import(name);', // 11: computed specifier
      "  const nested = await import('../integrations/slack/client.js');", // 12: a capability's subfolder
      "  type T = typeof import('../ai/call.js');", // 13: type query, upward
      '  return [z, authenticate, readBody, AppError, assertWritable, jobCatalog, anything, nested];',
      '}',
    ].join('\n');
    const found = violations(listImports('http/fake.ts', text));
    expect(found.map((v) => [v.line, v.target, v.kind])).to.deep.equal([
      [2, 'identity', 'static'],
      [5, 'members', 'type'],
      [6, 'surveys', 'static'],
      [9, 'billing', 'dynamic'],
      [10, 'jobCatalog.ts', 'dynamic'],
      [11, 'name', 'dynamic'],
      [12, 'integrations/slack', 'dynamic'],
      [13, 'ai', 'type'],
    ]);
    expect(found[0]!.message).to.equal('http/fake.ts:2 → identity (../identity/authenticate.js, static)');
    expect(found[5]!.message).to.match(/^http\/fake\.ts:11 → import\(name\): a dynamic import with a computed specifier/);
  });

  it('lets a capability or a composition root import anything, and a root infrastructure file only infrastructure', () => {
    const upward = "import { authenticate } from './identity/authenticate.js';\nconst m = await import('./surveys/service.js');\n";
    expect(violations(listImports('identity/routes.ts', "import { x } from '../billing/entitlements.js';\nimport('../surveys/service.js');"))).to.deep.equal([]);
    expect(violations(listImports('app.ts', upward))).to.deep.equal([]);
    expect(violations(listImports('context.ts', upward)).map((v) => v.target)).to.deep.equal(['identity', 'surveys']);
    expect(violations(listImports('db/schema/fake.ts', "import { x } from '../../cube/compiler.js';")).map((v) => v.target)).to.deep.equal(['cube']);
  });
});

// Vendor SDKs that most instances never call load when first used, not with the server: a `serve`
// start was 1.1 s of CPU heavier with them (7.6 against 6.5 s), and so was every `migrate`, `dev`
// and export (bench/startCost.ts measures it).
describe('vendor SDKs load when first used', () => {
  const listed = new Set<string>(LOADED_WHEN_USED);
  let records: ImportRecord[];
  before(function () {
    records = allImports.call(this).filter((r) => listed.has(r.specifier));
  });

  it('imports each only through import() or for its types, and imports each somewhere', () => {
    const loadedAtStart = records.filter((r) => r.kind === 'static').map((r) => `${r.file}:${r.line} → ${r.specifier}`);
    expect(loadedAtStart, 'static imports of an SDK that loads when first used').to.deep.equal([]);
    const loadedSomewhere = new Set(records.filter((r) => r.kind === 'dynamic').map((r) => r.specifier));
    expect(LOADED_WHEN_USED.filter((pkg) => !loadedSomewhere.has(pkg)), 'listed SDKs no file loads').to.deep.equal([]);
  });
});
