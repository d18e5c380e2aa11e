import { gunzipSync } from 'node:zlib';
import type Koa from 'koa';
import { AppError } from '../errors.js';

export type BodyKind = 'json' | 'text' | 'form' | 'raw';

const TYPES: Record<Exclude<BodyKind, 'raw'>, string[]> = {
  json: ['application/json', 'application/*+json'],
  text: ['text/csv', 'text/plain'],
  form: ['application/x-www-form-urlencoded'],
};

const invalid = (message: string) => new AppError('validation_failed', 'Invalid request body', [{ path: 'body', message }]);

/** Reads the whole body up to `limitBytes` (413 beyond), gunzipping `Content-Encoding: gzip`. */
export async function readRawBody(ctx: Koa.Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limitBytes) throw new AppError('payload_too_large', `Request body is larger than ${limitBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new AppError('payload_too_large', `Request body is larger than ${limitBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  const encoding = ctx.get('content-encoding').toLowerCase();
  if (encoding === '' || encoding === 'identity') return raw;
  if (encoding !== 'gzip') throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not supported (use gzip or none)`);
  try {
    const inflated = gunzipSync(raw, { maxOutputLength: limitBytes });
    return inflated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new AppError('payload_too_large', `Decompressed body is larger than ${limitBytes} bytes`);
    }
    throw invalid('Body is not valid gzip');
  }
}

/** Parses the body as the route declares; a wrong content type or malformed JSON is a 400 with a detail. */
export async function readBody(ctx: Koa.Context, kind: BodyKind, limitBytes: number): Promise<unknown> {
  if (kind !== 'raw' && !ctx.is(...TYPES[kind])) {
    throw invalid(`Content-Type must be ${TYPES[kind][0]}`);
  }
  const raw = await readRawBody(ctx, limitBytes);
  if (kind === 'raw') return raw;
  const text = raw.toString('utf8');
  if (kind === 'text') return text;
  if (kind === 'form') return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === '') throw invalid('Body is empty; a JSON object is expected');
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('Body is not valid JSON');
  }
}
