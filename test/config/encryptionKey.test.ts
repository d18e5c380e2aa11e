/** OAUTH_ENCRYPTION_KEY (src/config/encryptionKey.ts). */
import { expect } from 'chai';
import { decodeEncryptionKey, parseEncryptionKey } from '../../src/config/encryptionKey.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: OAUTH_ENCRYPTION_KEY', () => {
  it('accepts 64 hex characters, base64, base64url and a 32-byte string', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(decodeEncryptionKey(bytes.toString('hex'))).to.deep.equal(bytes);
    expect(decodeEncryptionKey(bytes.toString('base64'))).to.deep.equal(bytes);
    const urlSafe = Buffer.alloc(32, 0xfb);
    expect(decodeEncryptionKey(urlSafe.toString('base64url'))).to.deep.equal(urlSafe);
    expect(decodeEncryptionKey('x'.repeat(32))).to.deep.equal(Buffer.from('x'.repeat(32)));
    expect(parse({ OAUTH_ENCRYPTION_KEY: bytes.toString('hex') }, parseEncryptionKey)).to.deep.equal({ value: bytes, problems: [] });
  });

  it('is required, and refuses anything that is not 32 bytes', () => {
    expect(parse({}, parseEncryptionKey).problems).to.deep.equal(['OAUTH_ENCRYPTION_KEY is required']);
    expect(problems({ ...VALID, OAUTH_ENCRYPTION_KEY: 'x'.repeat(31) })).to.deep.equal([
      'OAUTH_ENCRYPTION_KEY must be exactly 32 bytes (64 hex characters, base64 of 32 bytes, or a 32-byte string)',
    ]);
    expect(problems({ ...VALID, OAUTH_ENCRYPTION_KEY: Buffer.alloc(33).toString('hex') })).to.have.length(1);
  });
});
