/** The object store (transcripts, exports): the S3_* group, or a local directory outside production. */
import { isIP } from 'node:net';
import { parseHttpUrl, type Reader } from './reader.js';

export type ObjectStoreConfig =
  | {
      kind: 's3';
      bucket: string;
      endpoint: string;
      accessKeyId: string;
      secretAccessKey: string;
      region: string;
      addressing: 'path' | 'virtual-host';
      /** Whether S3_ADDRESSING was derived from the endpoint rather than set. */
      addressingDerived: boolean;
    }
  | { kind: 'local'; dir: string }
  | { kind: 'none' };

/**
 * S3_ADDRESSING when unset: virtual-host for AWS endpoints (host ending in amazonaws.com), path
 * for everything else (MinIO, s3rver, IP addresses, localhost, other S3-compatible stores), since
 * self-hosted stores rarely have wildcard DNS for bucket subdomains.
 */
export function deriveAddressing(endpoint: string): 'path' | 'virtual-host' {
  const host = new URL(endpoint).hostname;
  if (isIP(host) || host === 'localhost') return 'path';
  return /(^|\.)amazonaws\.com$/.test(host) ? 'virtual-host' : 'path';
}

export function parseObjectStore(r: Reader, production: boolean): ObjectStoreConfig {
  const s3 = r.group('object store group (S3_BUCKET)', ['S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], ['S3_REGION', 'S3_ADDRESSING']);
  const localDir = r.get('LOCAL_OBJECT_STORE_DIR');
  if (localDir !== null && production) {
    r.problems.push('LOCAL_OBJECT_STORE_DIR is refused when NODE_ENV is production (configure the S3_* group)');
  }
  const addressingRaw = r.get('S3_ADDRESSING');
  if (addressingRaw !== null && addressingRaw !== 'path' && addressingRaw !== 'virtual-host') {
    r.problems.push('S3_ADDRESSING must be path or virtual-host');
  }
  if (s3 === null) {
    if (localDir !== null && !production) return { kind: 'local', dir: localDir };
    return { kind: 'none' };
  }
  const endpoint = parseHttpUrl(r, 'S3_ENDPOINT', s3.S3_ENDPOINT as string);
  if (endpoint === null) return { kind: 'none' };
  const explicit = addressingRaw === 'path' || addressingRaw === 'virtual-host' ? addressingRaw : null;
  return {
    kind: 's3',
    bucket: s3.S3_BUCKET as string,
    endpoint: endpoint.origin,
    accessKeyId: s3.S3_ACCESS_KEY_ID as string,
    secretAccessKey: s3.S3_SECRET_ACCESS_KEY as string,
    region: r.get('S3_REGION') ?? 'auto',
    addressing: explicit ?? deriveAddressing(endpoint.origin),
    addressingDerived: explicit === null,
  };
}
