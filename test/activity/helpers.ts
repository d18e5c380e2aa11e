/**
 * Helpers of the activity tests: code-host deliveries signed like the code host signs them, and a
 * real S3-speaking server (s3rver) on loopback with a temporary directory.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { Env } from '../../src/config/index.js';
import { dbFor } from '../helpers/factories.js';
import type { HttpClient, Response } from '../helpers/server.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'codehost');
/** The secret the recorded signatures in test/fixtures/codehost/signatures.json were made with. */
export const FIXTURE_SECRET = 'fixture-webhook-secret';
export const FIXTURE_INSTALLATION = 51234567;
export const WEBHOOK = '/api/integrations/codehost/webhook';

export const codehostEnv = (secret: string | null = FIXTURE_SECRET): Env => ({
  CODEHOST_APP_ID: '1048576',
  CODEHOST_APP_PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----\ntest-only\n-----END RSA PRIVATE KEY-----',
  CODEHOST_APP_NAME: 'delivery-analytics',
  ...(secret ? { CODEHOST_APP_WEBHOOK_SECRET: secret } : {}),
});

export const fixtureBytes = (name: string): Buffer => readFileSync(join(FIXTURES, `${name}.json`));
export const fixture = (name: string): any => JSON.parse(fixtureBytes(name).toString('utf8'));
export const recordedSignature = (name: string): string => JSON.parse(readFileSync(join(FIXTURES, 'signatures.json'), 'utf8'))[`${name}.json`];

export const sign = (body: Buffer | string, secret = FIXTURE_SECRET): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Sends a delivery as the code host does: `X-GitHub-Event`, `X-GitHub-Delivery`, `X-Hub-Signature-256`.
 * `payload` is a fixture name (sent byte for byte) or an object (serialised and signed).
 */
export async function deliver(
  api: HttpClient,
  event: string,
  payload: string | object,
  options: { delivery?: string; secret?: string; signature?: string; installationId?: number } = {},
): Promise<Response> {
  let body: Buffer;
  if (typeof payload === 'string' && options.installationId === undefined) {
    body = fixtureBytes(payload);
  } else {
    const object = typeof payload === 'string' ? fixture(payload) : payload;
    if (options.installationId !== undefined) object.installation = { ...object.installation, id: options.installationId };
    body = Buffer.from(JSON.stringify(object));
  }
  return api.post(WEBHOOK, new Uint8Array(body), {
    'content-type': 'application/json',
    'x-github-event': event,
    'x-github-delivery': options.delivery ?? randomUUID(),
    'x-hub-signature-256': options.signature ?? sign(body, options.secret),
    'user-agent': 'GitHub-Hookshot/5a1b2c3',
  });
}

/**
 * A merged pull request of `repo` as the code host sends it (`pull_request` closed), from the
 * recorded fixture with the given fields of `pull_request` replaced.
 */
export function mergedPullRequest(repo: string, fields: { id: number; number: number; created_at: string; merged_at: string; merge_commit_sha: string } & Record<string, unknown>): any {
  const event = fixture('pull_request.closed');
  event.repository.full_name = repo;
  event.pull_request.head.repo = { ...event.pull_request.head.repo, full_name: repo };
  Object.assign(event.pull_request, { html_url: `https://github.com/${repo}/pull/${fields.number}`, updated_at: fields.merged_at, closed_at: fields.merged_at, ...fields });
  return event;
}

/**
 * The registry row the code host's `installation` event (or any delivery of the installation)
 * leaves: an owner may link only an installation the code host has announced.
 */
export async function announceInstallation(databaseUrl: string, ...installationIds: number[]): Promise<void> {
  for (const id of installationIds) await dbFor(databaseUrl).pool.query('insert into codehost_installations (installation_id) values ($1) on conflict do nothing', [id]);
}

export interface FakeS3 {
  endpoint: string;
  directory: string;
  env(bucket: string): Env;
  createBucket(bucket: string): Promise<void>;
  client: S3Client;
  close(): Promise<void>;
}

/** s3rver on a free loopback port, storing under a temporary directory. */
export async function startS3(): Promise<FakeS3> {
  const directory = mkdtempSync(join(tmpdir(), 'da-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'auto',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    directory,
    client,
    env: (bucket) => ({ S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }),
    createBucket: async (bucket) => {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    },
    close: async () => {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
