/** The models' transpiled YAML kept between processes (CUBE_COMPILE_CACHE_DIR, src/cube/compiler.ts). */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { compileCube } from '../../src/cube/compiler.js';

/** A small model set of its own (the real one compiles in seconds; the mechanism is the same). */
const model = (description: string, measureType = 'count') => `cubes:
  - name: things
    sql: SELECT * FROM things WHERE {SECURITY_CONTEXT.tenant_id.requiredFilter('tenant_id')}
    measures:
      - name: count
        type: ${measureType}
        description: ${description}
    dimensions:
      - name: id
        sql: id
        type: string
        primary_key: true
`;

describe('cube models: the compile cache', function () {
  this.timeout(180_000);
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'da-cube-cache-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const cached = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('cube-yaml-'));
  const modelsWith = (name: string, yaml: string) => {
    const dir = join(root, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'things.yml'), yaml);
    return dir;
  };
  const description = async (dir: string, cache: string) => (await compileCube(dir, cache)).meta[0]!.measures[0]!.description;

  // Every compileCube starts Cube's transpiler afresh (a worker thread loading babel and the YAML
  // grammar, about 3 s of CPU even for this one-cube model), so the two cases below share the cold
  // compile of one model set into one cache, made here: 4 compiles instead of 5.
  let same: string;
  let cache: string;
  let firstCompile: string | undefined;
  before(async () => {
    same = modelsWith('same', model('How many things.'));
    cache = join(root, 'cache');
    firstCompile = await description(same, cache);
  });

  it('keeps the transpiled YAML of a compile that succeeded, and a later compile of the same models reads it', async () => {
    expect(firstCompile).to.equal('How many things.');
    const [file] = cached(cache);
    const stored = JSON.parse(readFileSync(join(cache, file!), 'utf8')) as Record<string, string>;
    expect(Object.values(stored)).to.have.length(1);
    // Proof that the next compile read the file: text only the stored copy carries reaches the models.
    const [key, text] = Object.entries(stored)[0]!;
    writeFileSync(join(cache, file!), JSON.stringify({ [key]: text.replace('How many things.', 'How many things (from the cache).') }));
    expect(await description(same, cache)).to.equal('How many things (from the cache).');
  });

  it('a changed model is transpiled again under a key of its own; an unreadable cache file is ignored, then replaced', async () => {
    const [first] = cached(cache);
    expect(cached(cache)).to.have.length(1);
    expect(await description(modelsWith('changed', model('Version two.')), cache)).to.equal('Version two.');
    expect(cached(cache)).to.have.length(2);
    writeFileSync(join(cache, first!), '{not json');
    expect(await description(modelsWith('same-again', model('How many things.')), cache)).to.equal('How many things.');
    expect(Object.values(JSON.parse(readFileSync(join(cache, first!), 'utf8')) as Record<string, string>)[0]).to.include('How many things.');
  });

  it('a model that does not compile leaves nothing in the cache, and fails the same way the next time', async () => {
    const models = modelsWith('broken', model('Broken.', 'not_a_type'));
    const cache = join(root, 'cache-none');
    const attempt = () => compileCube(models, cache).then(() => 'compiled', (error: Error) => error.message);
    const first = await attempt();
    expect(first).to.match(/^Compile errors:[\s\S]*things cube/);
    expect(readdirSync(root)).to.not.include('cache-none');
    expect(await attempt()).to.equal(first);
  });
});
