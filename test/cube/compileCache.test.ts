/** The models' transpiled YAML kept between processes (CUBE_COMPILE_CACHE_DIR, src/cube/compiler.ts). */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { compileCube, SCHEMA_DIR } from '../../src/cube/compiler.js';

describe('cube models: the compile cache', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'da-cube-cache-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const cached = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('cube-yaml-'));

  it('keeps the transpiled YAML of a compile that succeeded, and a later compile reads it: the same models', async () => {
    const cache = join(root, 'ok');
    const first = await compileCube(SCHEMA_DIR, cache);
    const files = cached(cache);
    expect(files).to.have.length(1);
    const stored = JSON.parse(readFileSync(join(cache, files[0]!), 'utf8')) as Record<string, string>;
    const models = readdirSync(SCHEMA_DIR).filter((f) => /\.ya?ml$/.test(f));
    expect(Object.keys(stored)).to.have.length(models.length);
    // Proof that the second compile read the file: a marker only the stored text carries is in its models.
    const [key, text] = Object.entries(stored)[0]!;
    const marked = text.replace('"description": `', '"description": `[from the cache] ');
    expect(marked).to.not.equal(text);
    writeFileSync(join(cache, files[0]!), JSON.stringify({ ...stored, [key]: marked }));
    const second = await compileCube(SCHEMA_DIR, cache);
    const descriptions = (c: typeof first) => c.meta.flatMap((m) => [m.description, ...m.measures.map((x) => x.description), ...m.dimensions.map((x) => x.description)]).filter(Boolean) as string[];
    expect(descriptions(second).filter((d) => d.startsWith('[from the cache] '))).to.have.length(1);
    expect(descriptions(second).map((d) => d.replace('[from the cache] ', ''))).to.deep.equal(descriptions(first));
    expect(Object.keys(second.members)).to.deep.equal(Object.keys(first.members));
  });

  it('a changed model is transpiled again under a key of its own; an unreadable cache file is ignored', async () => {
    const models = join(root, 'models');
    cpSync(SCHEMA_DIR, models, { recursive: true });
    const cache = join(root, 'changing');
    await compileCube(models, cache);
    const [before] = cached(cache);
    writeFileSync(join(cache, before!), '{not json');
    const file = readdirSync(models).find((f) => f.endsWith('.yml'))!;
    writeFileSync(join(models, file), `${readFileSync(join(models, file), 'utf8')}\n# changed\n`);
    const compiled = await compileCube(models, cache);
    expect(compiled.meta.length).to.be.greaterThan(10);
    expect(cached(cache)).to.have.length(2);
    expect(readFileSync(join(cache, before!), 'utf8')).to.equal('{not json');
    // The unreadable file's models still compile, and the file stays as it was (not overwritten).
    rmSync(join(models, file));
    cpSync(join(SCHEMA_DIR, file), join(models, file));
    expect((await compileCube(models, cache)).meta.length).to.equal(compiled.meta.length);
  });

  it('a model that does not compile leaves nothing in the cache, and fails the same way the next time', async () => {
    const models = join(root, 'broken');
    cpSync(SCHEMA_DIR, models, { recursive: true });
    writeFileSync(join(models, 'zz_broken.yml'), 'cubes:\n  - name: broken\n    sql: SELECT 1\n    measures:\n      - name: n\n        type: not_a_type\n');
    const cache = join(root, 'none');
    const attempt = () => compileCube(models, cache).then(() => 'compiled', (error: Error) => error.message);
    const first = await attempt();
    expect(first).to.match(/^Compile errors:[\s\S]*broken cube/);
    expect(readdirSync(root)).to.not.include('none');
    expect(await attempt()).to.equal(first);
  });
});
