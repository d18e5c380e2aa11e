import type { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStoreConfig } from '../config/index.js';
import { AppError } from '../errors.js';
import type { ObjectStore } from './objectStore.js';

type S3Config = Extract<ObjectStoreConfig, { kind: 's3' }>;
type Sdk = typeof import('@aws-sdk/client-s3');

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'TimeoutError', 'RequestTimeout']);
const REFUSED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'Forbidden', 'AllAccessDisabled']);

/** An S3-speaking store (AWS S3, MinIO, R2, s3rver …) through the AWS SDK. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  private loaded: Promise<{ client: S3Client; sdk: Sdk }> | null = null;

  constructor(private readonly config: S3Config) {}

  /**
   * The AWS SDK loads at the store's first use, not at start: it is a third of a second of CPU to
   * import, on every start and every CLI command (docs/architecture.md, "Vendor SDKs load when first used").
   */
  private ready(): Promise<{ client: S3Client; sdk: Sdk }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: this.connect(sdk) }));
    return this.loaded;
  }

  private connect(sdk: Sdk): S3Client {
    const config = this.config;
    return new sdk.S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      forcePathStyle: config.addressing === 'path',
      // S3-compatible stores often lack the newer default checksums; send them only when required.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An unreachable store must answer a request quickly with a 503, not hang it.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3000, requestTimeout: 30000 },
    });
  }

  private get hint(): string {
    const how = this.config.addressingDerived ? 'derived from S3_ENDPOINT' : 'set by S3_ADDRESSING';
    return `S3_ADDRESSING is ${this.config.addressing} (${how}); a path/virtual-host mismatch looks like a missing bucket or a permissions error`;
  }

  /** The SDK's error as a 503 naming the cause; credentials never appear. */
  private unavailable(error: unknown, doing: string): AppError {
    const e = error as { name?: string; code?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
    const name = e.Code ?? e.name ?? e.code ?? 'Error';
    const status = e.$metadata?.httpStatusCode;
    const where = `bucket "${this.config.bucket}" at ${this.config.endpoint}`;
    let cause: string;
    if (name === 'NoSuchBucket') cause = `the ${where} does not exist`;
    else if (name === 'NoSuchKey') cause = `the transcript object is missing from the ${where}`;
    else if (REFUSED.has(name) || status === 403) cause = `the store refused access to the ${where} (${name}); check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`;
    else if (UNREACHABLE.has(name) || UNREACHABLE.has(e.code ?? '')) cause = `the store at ${this.config.endpoint} is unreachable (${e.code ?? name})`;
    else cause = `the store failed to ${doing} in the ${where} (${name}${status ? ` ${status}` : ''})`;
    return new AppError('unavailable', `Object store unavailable: ${cause}. ${this.hint}`);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const { client, sdk } = await this.ready();
    try {
      await client.send(new sdk.PutObjectCommand({ Bucket: this.config.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
    } catch (error) {
      throw this.unavailable(error, 'write');
    }
  }

  async get(key: string): Promise<Buffer> {
    const { client, sdk } = await this.ready();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return Buffer.from(await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    } catch (error) {
      throw this.unavailable(error, 'read');
    }
  }

  async delete(key: string): Promise<void> {
    const { client, sdk } = await this.ready();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    } catch (error) {
      throw this.unavailable(error, 'delete');
    }
  }
}
