/**
 * Where transcripts live: an S3-speaking store (S3_* group), a local directory
 * (LOCAL_OBJECT_STORE_DIR, development only) or nothing. Every failure of the store surfaces as
 * AppError('unavailable') naming the cause, never a raw SDK error, so a client gets a 503 that
 * says what to fix instead of a 500 with a stack.
 */
import type { ObjectStoreConfig } from '../config/index.js';
import { LocalObjectStore } from './local.js';
import { S3ObjectStore } from './s3.js';

export interface ObjectStore {
  readonly kind: 's3' | 'local';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes; AppError('unavailable') when the store or the object is missing. */
  get(key: string): Promise<Buffer>;
  /** Deleting an object that does not exist succeeds. */
  delete(key: string): Promise<void>;
}

// One client per configuration object: the config is frozen and lives as long as the process.
const stores = new WeakMap<object, ObjectStore | null>();

/** The store of this configuration, or null when none is configured. */
export function objectStoreFor(config: ObjectStoreConfig): ObjectStore | null {
  if (config.kind === 'none') return null;
  let store = stores.get(config);
  if (store === undefined) {
    store = config.kind === 's3' ? new S3ObjectStore(config) : new LocalObjectStore(config.dir);
    stores.set(config, store);
  }
  return store;
}

/** Object keys always start with the tenant, so one tenant's objects can be listed, exported or purged alone. */
export function transcriptKey(tenantId: string, sessionId: string): string {
  return `tenants/${tenantId}/sessions/${sessionId}.jsonl`;
}
