/** The object store group (src/config/objectStore.ts). */
import { expect } from 'chai';
import { deriveAddressing, parseObjectStore } from '../../src/config/objectStore.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

const S3 = { S3_BUCKET: 'transcripts', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };

describe('configuration: object store', () => {
  it('is enabled by S3_BUCKET with region auto by default', () => {
    expect(loadConfig({ ...VALID, ...S3 }).objectStore).to.deep.equal({
      kind: 's3', bucket: 'transcripts', endpoint: 'http://127.0.0.1:9000', accessKeyId: 'id', secretAccessKey: 'secret',
      region: 'auto', addressing: 'path', addressingDerived: true,
    });
    expect(parse({}, (r) => parseObjectStore(r, false)).value).to.deep.equal({ kind: 'none' });
  });

  for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_BUCKET']) {
    it(`names ${name} when the group lacks it`, () => {
      const found = problems({ ...VALID, ...S3, [name]: undefined });
      expect(found).to.have.length(1);
      expect(found[0]).to.match(new RegExp(`^object store group \\(S3_BUCKET\\) is partially configured: missing ${name} `));
    });
  }

  it('derives the addressing style from the endpoint', () => {
    expect(deriveAddressing('https://s3.eu-west-1.amazonaws.com')).to.equal('virtual-host');
    expect(deriveAddressing('http://minio:9000')).to.equal('path');
    expect(deriveAddressing('http://10.0.0.5:9000')).to.equal('path');
    expect(deriveAddressing('https://acct.r2.cloudflarestorage.com')).to.equal('path');
  });

  it('honours an explicit S3_ADDRESSING and rejects other values', () => {
    expect(parse({ ...S3, S3_ADDRESSING: 'virtual-host' }, (r) => parseObjectStore(r, false)).value).to.include({ addressing: 'virtual-host', addressingDerived: false });
    expect(problems({ ...VALID, ...S3, S3_ADDRESSING: 'subdomain' })).to.deep.equal(['S3_ADDRESSING must be path or virtual-host']);
  });

  it('uses LOCAL_OBJECT_STORE_DIR outside production when no bucket is set, and refuses it in production', () => {
    expect(parse({ LOCAL_OBJECT_STORE_DIR: '/tmp/objects' }, (r) => parseObjectStore(r, false)).value).to.deep.equal({ kind: 'local', dir: '/tmp/objects' });
    expect(problems({ ...VALID, NODE_ENV: 'production', LOCAL_OBJECT_STORE_DIR: '/tmp/x' })).to.deep.equal([
      'LOCAL_OBJECT_STORE_DIR is refused when NODE_ENV is production (configure the S3_* group)',
    ]);
  });
});
